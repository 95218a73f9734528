/**
 * `npm run dev`: the API (restarted on change by tsx watch) on API_PORT and Vite with hot reload on 5173,
 * which proxies /web to the API. One Ctrl-C stops both.
 */
import { spawn } from 'node:child_process'

const apiPort = process.env.API_PORT ?? '3001'
const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort, STATIC_DIR: './.no-static' },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit', env: { ...process.env, API_PORT: apiPort } }),
]
const stop = () => {
  for (const child of children) child.kill('SIGTERM')
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
for (const child of children)
  child.on('exit', (code) => {
    stop()
    process.exitCode = code ?? 0
  })
