import { createFileRoute } from '@tanstack/react-router'
import { AddressForm } from '../../features/registration/address-form'
import { loadPageTitle, titleHead } from '../../ui/layout/page-title'

export const Route = createFileRoute('/registration/address')({
  loader: () => loadPageTitle('registration_address'),
  head: titleHead,
  component: AddressForm,
})
