/** Placeholder: filled by the issue 19 work that owns it. */
export {}
