// Starts a real sandbox-desk-local on a free loopback port for one test file and
// gives the official SDK and CLI the environment that points them at it.
import { spawn, execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'

const binDir = process.env.SD_BIN_DIR
if (!binDir) throw new Error('SD_BIN_DIR is not set: run this through ctest')
export const npmDir = process.env.SD_NPM_DIR || path.join(binDir, '..', 'npm')
const requireFromNpm = createRequire(path.join(npmDir, 'package.json'))

/// The official SDK at the pinned version (`e2b`) or the old line (`e2b-2.38.2`).
export function sdk(name = 'e2b') {
  return requireFromNpm(name)
}

export function binary(name) {
  return path.join(binDir, name)
}

export async function startBackend(extraArgs = []) {
  const stateDir = mkdtempSync(path.join(tmpdir(), 'sd-conformance-'))
  const apiKey = 'e2b_' + randomBytes(20).toString('hex')
  const child = spawn(binary('sandbox-desk-local'),
    ['--port', '0', '--state-dir', stateDir, '--api-key', apiKey, ...extraArgs],
    { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d) => { stderr += d })
  const url = await new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error('backend printed no listening line: ' + stderr)), 20000)
    child.stdout.on('data', (d) => {
      out += d
      const m = out.match(/^listening (\S+)$/m)
      if (m) { clearTimeout(timer); resolve(m[1]) }
    })
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`backend exited (${code}): ${stderr}`)) })
  })
  const env = { E2B_API_URL: url, E2B_SANDBOX_URL: url, E2B_API_KEY: apiKey }
  return {
    url, apiKey, stateDir, env,
    // Options for every SDK call, so no test depends on process.env.
    opts: { apiUrl: url, sandboxUrl: url, apiKey },
    async api(method, p, body) {
      const res = await fetch(url + p, {
        method,
        headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await res.text()
      return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null }
    },
    async stop() {
      child.removeAllListeners('exit')
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
      rmSync(stateDir, { recursive: true, force: true })
    },
  }
}

/// Runs the official CLI (`e2b ...`) against the backend; resolves with its output.
export function cli(backend, args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(npmDir, 'node_modules', '@e2b', 'cli', 'dist', 'index.js'), ...args],
      { env: { ...process.env, ...backend.env, NO_COLOR: '1', NO_UPDATE_NOTIFIER: '1' }, timeout: 60000 },
      (error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }))
  })
}
