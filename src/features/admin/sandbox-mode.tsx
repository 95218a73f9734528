/**
 * The back office's two sandbox switches (issue 20 item 1; docs/decisions/0039-sandbox-panel.md): the instance's
 * on /admin/router (every visitor in sandbox mode, as with the QA cookie) and one client's on the client file (that
 * client in sandbox mode when logged in). Each is a labelled switch with who set it and when; shown only to a user
 * holding the `sandbox` permission, and only on a sandbox deployment (a production server has no such calls).
 */
import {
  type QueryKey,
  type UseMutationResult,
  type UseQueryResult,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { useId } from 'react'
import {
  getClientSandboxMode,
  getInstanceSandboxMode,
  type SandboxMode,
  setClientSandboxMode,
  setInstanceSandboxMode,
} from '../../../domain/contract/sandbox-mode'
import { useApi } from '../../app/app-context'
import { DEPLOYMENT_QUERY_KEY, useDeployment } from '../../app/deployment'
import { fmt, useMessages } from '../../i18n/messages'
import { manilaDateTime } from './admin-api'
import { useMayDo } from './permissions'

type Texts = ReturnType<typeof useMessages>['admin']['sandboxMode']

const modeKeys = {
  instance: ['admin', 'sandbox-mode', 'instance'] as const,
  client: (id: number) => ['admin', 'sandbox-mode', 'client', id] as const,
}

/** Whether the user may switch sandbox mode here: the permission, on a sandbox deployment. */
function useMaySwitch(): boolean {
  const may = useMayDo()
  // The banner's query: one environment answer per page load.
  const { data } = useDeployment()
  return may('sandbox') && data?.sandbox === true
}

/** The instance's switch, on /admin/router. */
export function InstanceSandboxMode() {
  const api = useApi()
  const queryClient = useQueryClient()
  const t = useMessages().admin.sandboxMode
  const allowed = useMaySwitch()
  const mode = useQuery({
    queryKey: modeKeys.instance,
    queryFn: ({ signal }) => api.call(getInstanceSandboxMode, {}, { signal }),
    enabled: allowed,
  })
  const set = useMutation({
    mutationFn: (enabled: boolean) => api.call(setInstanceSandboxMode, { body: { enabled } }),
    onSuccess: (answer) => {
      queryClient.setQueryData(modeKeys.instance, answer)
      // The banner and the journey read the instance's sandbox mode from the environment answer.
      void queryClient.invalidateQueries({ queryKey: DEPLOYMENT_QUERY_KEY })
    },
  })
  if (!allowed) return null
  return (
    <SwitchSection
      id="sandbox-instance-mode-title"
      title={t.instance.title}
      lead={t.instance.lead}
      label={t.instance.label}
      mode={mode}
      set={set}
      texts={t}
    />
  )
}

/** One client's switch, on the client file. */
export function ClientSandboxMode({ clientId }: { clientId: number }) {
  const api = useApi()
  const queryClient = useQueryClient()
  const t = useMessages().admin.sandboxMode
  const allowed = useMaySwitch()
  const key: QueryKey = modeKeys.client(clientId)
  const mode = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.call(getClientSandboxMode, { params: { id: clientId } }, { signal }),
    enabled: allowed,
  })
  const set = useMutation({
    mutationFn: (enabled: boolean) =>
      api.call(setClientSandboxMode, { params: { id: clientId }, body: { enabled } }),
    onSuccess: (answer) => queryClient.setQueryData(key, answer),
  })
  if (!allowed) return null
  return (
    <SwitchSection
      id="client-sandbox-mode-title"
      title={t.client.title}
      lead={t.client.lead}
      label={t.client.label}
      mode={mode}
      set={set}
      texts={t}
    />
  )
}

function stateText(mode: SandboxMode, t: Texts): string {
  if (!mode.changedBy || !mode.changedAt) return t.never
  const who = { at: manilaDateTime(mode.changedAt), name: mode.changedBy.name }
  return fmt(mode.enabled ? t.on : t.off, who)
}

function SwitchSection({
  id,
  title,
  lead,
  label,
  mode: query,
  set,
  texts: t,
}: {
  id: string
  title: string
  lead: string
  label: string
  /** The switch's state as read, and its change. */
  mode: UseQueryResult<SandboxMode>
  set: UseMutationResult<SandboxMode, Error, boolean>
  texts: Texts
}) {
  const m = useMessages().admin
  const stateId = useId()
  const mode = query.data
  const pending = set.isPending
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id} className="section__title">
        {title}
      </h2>
      <p>{lead}</p>
      {query.isPending ? <p role="status">{m.loading}</p> : null}
      {query.isError ? (
        <div role="alert">
          <p>{m.loadFailed}</p>
          <button type="button" className="button button--secondary" onClick={() => query.refetch()}>
            {m.retry}
          </button>
        </div>
      ) : null}
      {mode ? (
        <>
          <p className="field">
            <label className="choice">
              <input
                type="checkbox"
                role="switch"
                checked={mode.enabled}
                aria-checked={mode.enabled}
                aria-describedby={stateId}
                disabled={pending}
                onChange={(event) => set.mutate(event.currentTarget.checked)}
              />
              <span>{label}</span>
            </label>
          </p>
          <p id={stateId} role="status" data-sandbox-mode={mode.enabled ? 'on' : 'off'}>
            {pending ? t.saving : stateText(mode, t)}
          </p>
        </>
      ) : null}
      {set.error ? <p role="alert">{fmt(t.failed, { message: set.error.message })}</p> : null}
    </section>
  )
}
