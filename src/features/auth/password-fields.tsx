/**
 * A new password and its repetition (sign-up, recovery, change password): the same hint, autocomplete and
 * 24-character limit everywhere (domain/identity.ts `passwordSchema`). Each form passes its registration and
 * error for the two fields; sign-up calls the first one "Password", the others "New password".
 */
import { useMessages } from '../../i18n/messages'
import { TextField, type TextFieldProps } from '../../ui/forms/fields'

type FieldProps = Omit<TextFieldProps, 'label' | 'type' | 'autoComplete' | 'maxLength'>

export function NewPasswordFields({
  password,
  passwordRepeat,
  passwordLabel,
}: {
  password: FieldProps
  passwordRepeat: FieldProps
  passwordLabel?: string
}) {
  const m = useMessages().auth
  return (
    <>
      <TextField
        label={passwordLabel ?? m.fields.newPassword}
        hint={m.fields.passwordHint}
        type="password"
        autoComplete="new-password"
        maxLength={24}
        {...password}
      />
      <TextField
        label={m.fields.passwordRepeat}
        type="password"
        autoComplete="new-password"
        maxLength={24}
        {...passwordRepeat}
      />
    </>
  )
}
