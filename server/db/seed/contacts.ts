/**
 * Footer contact entries. The numbers are fictional placeholders in the real format (Globe 0917, Smart 0918)
 * until the operator's lines are known; an admin edits the rows and seeding never puts these back.
 */
import type { Contact } from '../../../domain/reference'

const careHours = 'Mon to Sat, 8:00 AM to 8:00 PM'
// Inbound hours only: outbound collection calls follow SEC MC 18 s.2019 (6 AM to 10 PM), enforced elsewhere.
const collectionHours = 'Mon to Sun, 8:00 AM to 8:00 PM'

export const seedContacts: Contact[] = [
  { key: 'cc', kind: 'tel', link: 'tel:+639171234567', display: '0917 123 4567', hours: careHours },
  { key: 'cc1', kind: 'email', link: 'mailto:care@hiram.ph', display: 'care@hiram.ph', hours: careHours },
  { key: 'dc', kind: 'tel', link: 'tel:+639187654321', display: '0918 765 4321', hours: collectionHours },
  {
    key: 'dc1',
    kind: 'email',
    link: 'mailto:collections@hiram.ph',
    display: 'collections@hiram.ph',
    hours: collectionHours,
  },
]
