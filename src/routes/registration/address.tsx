import { createFileRoute } from '@tanstack/react-router'
import { AddressForm } from '../../features/registration/address-form'

export const Route = createFileRoute('/registration/address')({
  component: AddressForm,
})
