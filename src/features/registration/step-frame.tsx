/**
 * The frame of a registration step: the title, a step indicator ("Step 3 of 8: Reference person") and the
 * form. The indicator is an ordered list with `aria-current="step"`, so it reads well without the visuals.
 */
import type { ReactNode } from 'react'
import { fmt, useMessages } from '../../i18n/messages'

export const registrationSteps = [
  'details',
  'employment',
  'reference',
  'address',
  'documents',
  'verification',
  'bankData',
  'payment',
] as const
export type RegistrationStep = (typeof registrationSteps)[number]

export function StepIndicator({ current }: { current: RegistrationStep }) {
  const m = useMessages().journey.steps
  const index = registrationSteps.indexOf(current)
  return (
    <nav className="reg-steps" aria-label={m.label}>
      <p className="reg-steps__current">
        {fmt(m.current, { current: index + 1, total: registrationSteps.length, name: m.names[current] })}
      </p>
      <ol className="reg-steps__list">
        {registrationSteps.map((step, i) => (
          <li
            key={step}
            className={`reg-steps__item${i < index ? ' reg-steps__item--done' : ''}${i === index ? ' reg-steps__item--current' : ''}`}
            aria-current={i === index ? 'step' : undefined}
          >
            <span className="visually-hidden">{m.names[step]}</span>
          </li>
        ))}
      </ol>
    </nav>
  )
}

export function StepFrame({
  step,
  title,
  intro,
  children,
}: {
  step: RegistrationStep
  title: string
  intro?: string
  children: ReactNode
}) {
  return (
    <section className="page page--narrow reg" aria-labelledby="reg-title">
      <StepIndicator current={step} />
      <h1 id="reg-title" className="reg__title">
        {title}
      </h1>
      {intro ? <p className="reg__intro">{intro}</p> : null}
      {children}
    </section>
  )
}
