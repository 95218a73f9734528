/**
 * What the signed-in back-office user may do, by the one table the server checks (domain/back-office/roles.ts):
 * screens hide the actions a role cannot take rather than offering a button that answers 403.
 */
import { useSelector } from '@xstate/react'
import { mayDo, type Permission } from '../../../domain/back-office/roles'
import { useAuthActor } from '../../app/app-context'

const noRoles: readonly string[] = []

export function useMayDo(): (permission: Permission) => boolean {
  const roles = useSelector(useAuthActor(), (snapshot) => snapshot.context.user?.roles ?? noRoles)
  return (permission) => mayDo(roles, permission)
}
