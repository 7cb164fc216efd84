// The official e2b SDK (pinned 2.51.0) and @e2b/cli (pinned) against
// sandbox-desk-local's control plane, unchanged.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startBackend, sdk, cli } from './lib/backend.mjs'

const { Sandbox } = sdk()
let backend

before(async () => { backend = await startBackend() })
after(async () => { await backend?.stop() })

async function listAll(query, limit) {
  const paginator = Sandbox.list({ ...backend.opts, query, limit })
  const pages = []
  while (paginator.hasNext) pages.push(await paginator.nextItems())
  return pages
}

test('Sandbox.create base with metadata and timeoutMs', async () => {
  const before = Date.now()
  const sbx = await Sandbox.create('base', { ...backend.opts, metadata: { suite: 'create', owner: 'sdk' }, timeoutMs: 120_000 })
  assert.match(sbx.sandboxId, /^[a-z0-9]{20}$/)
  const info = await sbx.getInfo()
  assert.equal(info.sandboxId, sbx.sandboxId)
  assert.equal(info.templateId, 'base')
  assert.deepEqual(info.metadata, { suite: 'create', owner: 'sdk' })
  assert.equal(info.state, 'running')
  const lifetime = info.endAt.getTime() - before
  assert.ok(lifetime > 110_000 && lifetime < 130_000, `endAt ${lifetime} ms from now, expected about 120 s`)
  await Sandbox.kill(sbx.sandboxId, backend.opts)
})

test('Sandbox.list filters by metadata and state, and pages', async () => {
  const made = []
  for (let i = 0; i < 7; i++) {
    made.push((await Sandbox.create('base', { ...backend.opts, metadata: { suite: 'list', n: String(i) } })).sandboxId)
  }
  const other = await Sandbox.create('base', { ...backend.opts, metadata: { suite: 'elsewhere' } })
  await Sandbox.pause(made[0], backend.opts).catch(async () => {
    // 2.51 exposes pause on the instance; fall back to the REST call the SDK makes.
    const r = await backend.api('POST', `/sandboxes/${made[0]}/pause`)
    assert.equal(r.status, 204)
  })

  const pages = await listAll({ metadata: { suite: 'list' } }, 3)
  assert.deepEqual(pages.map((p) => p.length), [3, 3, 1])
  const ids = pages.flat().map((s) => s.sandboxId)
  assert.deepEqual([...ids].sort(), [...made].sort())
  assert.ok(!ids.includes(other.sandboxId))

  const running = (await listAll({ metadata: { suite: 'list' }, state: ['running'] })).flat()
  assert.equal(running.length, 6)
  assert.ok(!running.some((s) => s.sandboxId === made[0]))
  const paused = (await listAll({ metadata: { suite: 'list' }, state: ['paused'] })).flat()
  assert.deepEqual(paused.map((s) => s.sandboxId), [made[0]])
  assert.equal(paused[0].state, 'paused')

  const two = (await listAll({ metadata: { suite: 'list', n: '2' } })).flat()
  assert.deepEqual(two.map((s) => s.sandboxId), [made[2]])
})

test('setTimeout moves endAt', async () => {
  const sbx = await Sandbox.create('base', { ...backend.opts, timeoutMs: 60_000 })
  await sbx.setTimeout(600_000)
  const info = await sbx.getInfo()
  const left = info.endAt.getTime() - Date.now()
  assert.ok(left > 590_000 && left <= 601_000, `endAt ${left} ms from now, expected about 600 s`)
  assert.equal(await Sandbox.kill(sbx.sandboxId, backend.opts), true)
  assert.equal(await Sandbox.kill(sbx.sandboxId, backend.opts), false, 'a second kill finds nothing')
  const r = await backend.api('GET', `/sandboxes/${sbx.sandboxId}`)
  assert.equal(r.status, 404)
})

test('lifecycle onTimeout pause: paused at the timeout, not killed, and connect resumes it', async () => {
  const plain = await Sandbox.create('base', backend.opts)
  assert.deepEqual((await plain.getInfo()).lifecycle, { onTimeout: 'kill', autoResume: false })
  await plain.kill()

  const sbx = await Sandbox.create('base', { ...backend.opts, timeoutMs: 300_000, lifecycle: { onTimeout: 'pause' } })
  const handle = await sbx.commands.run('sleep 600', { background: true })
  let info = await sbx.getInfo()
  assert.deepEqual(info.lifecycle, { onTimeout: 'pause', autoResume: false })
  await sbx.setTimeout(1000)
  // Waits for the timeout to pass (bounded: a sandbox that is killed instead fails below).
  for (let i = 0; i < 300 && info.state === 'running'; i++) {
    await new Promise((r) => setTimeout(r, 100))
    info = await Sandbox.getInfo(sbx.sandboxId, backend.opts)
  }
  assert.equal(info.state, 'paused')
  const paused = await Sandbox.list({ ...backend.opts, query: { state: ['paused'] } }).nextItems()
  assert.ok(paused.some((s) => s.sandboxId === sbx.sandboxId), 'listed as paused')

  const resumed = await Sandbox.connect(sbx.sandboxId, { ...backend.opts, timeoutMs: 60_000 })
  assert.equal((await resumed.getInfo()).state, 'running')
  const processes = await resumed.commands.list()
  assert.ok(processes.some((p) => p.pid === handle.pid), 'its process lived through the pause')
  assert.equal((await resumed.commands.run('echo back')).stdout, 'back\n')
  await resumed.kill()
})

test('lifecycle autoResume: a request to the paused sandbox resumes it, with its timeout from creation', async () => {
  const sbx = await Sandbox.create('base', {
    ...backend.opts, timeoutMs: 120_000, lifecycle: { onTimeout: 'pause', autoResume: true },
  })
  assert.deepEqual((await sbx.getInfo()).lifecycle, { onTimeout: 'pause', autoResume: true })
  const handle = await sbx.commands.run('sleep 600', { background: true })
  await sbx.setTimeout(30_000) // what the resume must not keep
  await sbx.pause()
  assert.equal((await Sandbox.getInfo(sbx.sandboxId, backend.opts)).state, 'paused')

  const woken = Date.now()
  assert.equal((await sbx.commands.run('echo awake')).stdout, 'awake\n')
  const info = await sbx.getInfo()
  assert.equal(info.state, 'running')
  const left = info.endAt.getTime() - woken
  assert.ok(left > 100_000 && left <= 125_000, `a fresh 120 s from the resume, not 30 s: ${left} ms`)
  assert.ok((await sbx.commands.list()).some((p) => p.pid === handle.pid), 'its process lived through the pause')
  const logs = await backend.api('GET', `/v2/sandboxes/${sbx.sandboxId}/logs`)
  assert.ok(JSON.stringify(logs.json).includes('resumed by a request (autoResume)'), 'the event says why')
  await sbx.kill()

  // Without it a paused sandbox stays paused: the SDK reports the backend's
  // `unavailable` in its own words.
  const plain = await Sandbox.create('base', { ...backend.opts, lifecycle: { onTimeout: 'pause' } })
  await plain.pause()
  await assert.rejects(plain.commands.run('echo awake'),
    (err) => { assert.match(err.message, /Sandbox is probably not running anymore/); return true })
  assert.equal((await Sandbox.getInfo(plain.sandboxId, backend.opts)).state, 'paused')
  await plain.kill()
})

test('lifecycle settings the local backend cannot honour are refused, not ignored', async () => {
  const before = (await backend.api('GET', '/v2/sandboxes')).json.length
  const refused = await backend.api('POST', '/sandboxes', { templateID: 'base', autoResume: { enabled: true } })
  assert.equal(refused.status, 400)
  assert.match(refused.json.message, /autoResume: needs autoPause/)
  await assert.rejects(
    Sandbox.create('base', { ...backend.opts, lifecycle: { onTimeout: { action: 'pause', keepMemory: false } } }),
    (err) => { assert.match(err.message, /autoPauseMemory: false/); return true })
  assert.equal((await backend.api('GET', '/v2/sandboxes')).json.length, before, 'nothing was created')
})

test('a wrong API key is refused with E2B\'s error shape', async () => {
  await assert.rejects(
    Sandbox.create('base', { ...backend.opts, apiKey: 'e2b_' + '0'.repeat(40) }),
    (err) => /401|Unauthorized|API key/i.test(String(err)),
  )
})

test('e2b sandbox list -f json and e2b sandbox kill', async () => {
  const a = await Sandbox.create('base', { ...backend.opts, metadata: { suite: 'cli' } })
  const b = await Sandbox.create('base', { ...backend.opts, metadata: { suite: 'cli' } })
  const listed = await cli(backend, ['sandbox', 'list', '-f', 'json', '-m', 'suite=cli'])
  assert.equal(listed.code, 0, listed.stderr)
  const rows = JSON.parse(listed.stdout)
  assert.deepEqual(rows.map((r) => r.sandboxID ?? r.sandboxId).sort(), [a.sandboxId, b.sandboxId].sort())

  const killed = await cli(backend, ['sandbox', 'kill', a.sandboxId])
  assert.equal(killed.code, 0, killed.stderr)
  const after = (await listAll({ metadata: { suite: 'cli' } })).flat().map((s) => s.sandboxId)
  assert.deepEqual(after, [b.sandboxId])
})

test('e2b sandbox logs prints the lifecycle, as pretty lines and as JSON', async () => {
  const sbx = await Sandbox.create('base', backend.opts)
  const pretty = await cli(backend, ['sandbox', 'logs', sbx.sandboxId])
  assert.equal(pretty.code, 0, pretty.stderr)
  assert.match(pretty.stdout, /INFO .*Sandbox created from template base/)
  const json = await cli(backend, ['sandbox', 'logs', '--format', 'json', sbx.sandboxId])
  assert.equal(json.code, 0, json.stderr)
  const lines = json.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l))
  assert.ok(lines.some((l) => l.message === 'Sandbox created from template base' && l.logger === 'sandbox-desk-local'),
    json.stdout)
  await sbx.kill()
})

test('past --max-sandboxes the SDK throws RateLimitError with the reason', async () => {
  const limited = await startBackend(['--isolation', 'none', '--max-sandboxes', '1'])
  try {
    const first = await Sandbox.create('base', limited.opts)
    await assert.rejects(Sandbox.create('base', limited.opts), (err) => {
      assert.equal(err.name, 'RateLimitError')
      assert.equal(err.message, 'Rate limit exceeded, please try again later - too many sandboxes: '
        + 'this backend keeps at most 1 at once (--max-sandboxes); kill one first')
      return true
    })
    await Sandbox.kill(first.sandboxId, limited.opts)
    const next = await Sandbox.create('base', limited.opts)
    await Sandbox.kill(next.sandboxId, limited.opts)
  } finally {
    await limited.stop()
  }
})
