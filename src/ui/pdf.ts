/** A PDF the API answered (a Blob: the call carries the session's token, so a plain link cannot fetch it). */
export type PdfMode = 'read' | 'download'

/** Opens the PDF in a new tab (read) or saves it as `fileName` (download). */
export function showPdf(blob: Blob, fileName: string, mode: PdfMode) {
  const url = URL.createObjectURL(blob)
  if (mode === 'read') {
    window.open(url, '_blank', 'noopener')
  } else {
    const link = document.createElement('a')
    link.href = url
    link.download = fileName
    link.click()
  }
  // The new tab or the download has read it by then.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
