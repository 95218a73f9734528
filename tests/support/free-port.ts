/**
 * Ports for servers a test spawns: ask the kernel for free ones instead of guessing a random number, which
 * collided with a port in use on CI (EADDRINUSE). All the ports asked for in one call are held open together
 * and released together, so they are distinct; the window between release and the child's listen is short.
 */
import { createServer, type Server } from 'node:net'

export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = []
  try {
    const ports: number[] = []
    for (let i = 0; i < count; i++) {
      const server = createServer()
      servers.push(server)
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(0, '127.0.0.1', () => resolve())
      })
      const address = server.address()
      if (address === null || typeof address === 'string') throw new Error('no TCP address')
      ports.push(address.port)
    }
    return ports
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
  }
}

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1)
  return port as number
}
