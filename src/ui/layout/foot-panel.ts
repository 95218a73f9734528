/**
 * A panel fixed at the foot of the screen (the device-data consent notice, the Android install prompt): it
 * appears over the page, so nothing on screen moves when it does (no layout shift), and while it shows the page
 * keeps room below its end for it and scrolls a focused control clear of it. Its height is measured into a CSS
 * variable on <html>, beside a class that layout.css reads.
 */
import { type RefObject, useEffect } from 'react'

export function useFootPanel(
  panel: RefObject<HTMLElement | null>,
  shown: boolean,
  { openClass, heightVariable }: { openClass: string; heightVariable: string },
) {
  useEffect(() => {
    const element = panel.current
    if (!shown || !element) return
    const root = document.documentElement
    root.classList.add(openClass)
    const measure = () => root.style.setProperty(heightVariable, `${element.offsetHeight}px`)
    measure()
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : undefined
    observer?.observe(element)
    return () => {
      observer?.disconnect()
      root.classList.remove(openClass)
      root.style.removeProperty(heightVariable)
    }
  }, [panel, shown, openClass, heightVariable])
}
