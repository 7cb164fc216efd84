// The official e2b SDK running commands and creating MCP sandboxes against
// sandbox-desk-local's envd, unchanged; and the orphan an older SDK leaves.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startBackend, sdk } from './lib/backend.mjs'

const { Sandbox, CommandExitError, SandboxError, InvalidArgumentError } = sdk()
let backend

before(async () => { backend = await startBackend() })
after(async () => { await backend?.stop() })

const VALID_MCP = { 'duckduckgo': {} }

async function running() {
  const r = await backend.api('GET', '/v2/sandboxes?state=running,paused')
  return r.json.map((s) => s.sandboxID)
}

test('commands.run: exit code, stdout, stderr, envs, cwd', async () => {
  const sbx = await Sandbox.create('base', backend.opts)
  const ok = await sbx.commands.run('echo out; echo err >&2; echo "$GREETING"; pwd', { envs: { GREETING: 'hi there' }, cwd: '/tmp' })
  assert.equal(ok.exitCode, 0)
  assert.equal(ok.stdout, 'out\nhi there\n/tmp\n')
  assert.equal(ok.stderr, 'err\n')
  await assert.rejects(sbx.commands.run('echo failing >&2; exit 3'), (err) => {
    assert.ok(err instanceof CommandExitError)
    assert.equal(err.exitCode, 3)
    assert.equal(err.stderr, 'failing\n')
    return true
  })
  await sbx.kill()
})

test('commands.run: onStdout is called before the command ends', async () => {
  const sbx = await Sandbox.create('base', backend.opts)
  const seen = []
  let firstAt = 0
  const started = Date.now()
  const result = await sbx.commands.run('echo first; sleep 2; echo second', {
    onStdout: (line) => { if (!firstAt) firstAt = Date.now(); seen.push(line) },
  })
  const ended = Date.now()
  assert.equal(result.stdout, 'first\nsecond\n')
  assert.ok(firstAt > 0 && ended - firstAt >= 1500, `first chunk came ${ended - firstAt} ms before the end (started ${firstAt - started} ms in)`)
  await sbx.kill()
})

test('background commands are listed and can be killed', async () => {
  const sbx = await Sandbox.create('base', backend.opts)
  const handle = await sbx.commands.run('sleep 300', { background: true })
  const listed = await sbx.commands.list()
  assert.ok(listed.some((p) => p.pid === handle.pid), 'the background process is listed')
  assert.equal(await sbx.commands.kill(handle.pid), true)
  await assert.rejects(handle.wait())
  const after = await sbx.commands.list()
  assert.ok(!after.some((p) => p.pid === handle.pid), 'the killed process is gone')
  await sbx.kill()
})

test('stdin: sent, then closed, ends a command that reads to the end', async () => {
  const sbx = await Sandbox.create('base', backend.opts)
  assert.equal(sbx.commands.supportsStdinClose, true)
  const handle = await sbx.commands.run('wc -c', { background: true, stdin: true })
  await sbx.commands.sendStdin(handle.pid, 'twelve bytes')
  await sbx.commands.closeStdin(handle.pid)
  const result = await handle.wait()
  assert.equal(result.stdout.trim(), '12')
  await sbx.kill()
})

test('commands: a command that fails says why, in the words of Go\'s exec (envd)', async () => {
  const sbx = await Sandbox.create('base', backend.opts)
  await assert.rejects(sbx.commands.run('exit 3'), (err) => {
    assert.ok(err instanceof CommandExitError, String(err))
    assert.equal(err.exitCode, 3)
    assert.equal(err.error, 'exit status 3')
    assert.equal(err.message, 'exit status 3')
    return true
  })
  // The e2b CLI tells a killed command by this text.
  const handle = await sbx.commands.run('sleep 300', { background: true })
  assert.equal(await sbx.commands.kill(handle.pid), true)
  await assert.rejects(handle.wait(), (err) => {
    assert.ok(err instanceof CommandExitError, String(err))
    assert.equal(err.error, 'signal: killed')
    return true
  })
  const ok = await sbx.commands.run('true')
  assert.equal(ok.exitCode, 0)
  assert.equal(ok.error, undefined)
  await sbx.kill()
})

test('stdin: closing the stdin of a command started without one is no error', async () => {
  const sbx = await Sandbox.create('base', backend.opts)
  const handle = await sbx.commands.run('sleep 300', { background: true })
  await handle.closeStdin()
  await sbx.commands.closeStdin(handle.pid)
  await handle.kill()
  await sbx.kill()
})

test('commands.run: a cwd that does not exist is refused before anything starts', async () => {
  const sbx = await Sandbox.create('base', backend.opts)
  const refused = (cwd, resolved) => assert.rejects(
    sbx.commands.run('touch /home/user/ran', { cwd }), (err) => {
      assert.ok(err instanceof InvalidArgumentError, String(err))
      assert.match(err.message, new RegExp(`cwd '${resolved}' does not exist`))
      return true
    })
  await refused('/x', '/x')
  await refused('no/such/folder', '/home/user/no/such/folder')
  await refused('/tmp/nothing', '/tmp/nothing')
  await refused('/usr/no-such-folder', '/usr/no-such-folder')
  await refused('/home/someone', '/home/someone')
  await refused('/etc/no-such-folder', '/etc/no-such-folder')
  await refused('/etc/ssl/private', '/etc/ssl/private') // root's alone: the jail covers it
  await refused('/etc/ssh', '/etc/ssh') // the jail leaves it out
  assert.equal(await sbx.files.exists('/home/user/ran'), false, 'nothing ran')
  await sbx.files.makeDir('/home/user/work')
  for (const [cwd, pwd] of [['work', '/home/user/work'], ['~', '/home/user'], ['/usr/bin', '/usr/bin'], ['/etc/apt', '/etc/apt'], ['/', '/']]) {
    const r = await sbx.commands.run('pwd', { cwd })
    assert.equal(r.stdout, pwd + '\n')
  }
  await sbx.kill()
})

test('isRunning: true while running, false once paused or killed', async () => {
  const sbx = await Sandbox.create('base', backend.opts)
  assert.equal(await sbx.isRunning(), true)
  await sbx.pause()
  assert.equal(await sbx.isRunning(), false)
  await sbx.connect()
  assert.equal(await sbx.isRunning(), true)
  await sbx.kill()
  assert.equal(await sbx.isRunning(), false)
})

test('files.write and files.read: what one side writes, the other reads', async () => {
  const sbx = await Sandbox.create('base', backend.opts)
  const info = await sbx.files.write('/home/user/notes/today/plan.txt', 'write the tests\n')
  assert.deepEqual({ ...info }, { name: 'plan.txt', type: 'file', path: '/home/user/notes/today/plan.txt', metadata: undefined })
  assert.equal((await sbx.commands.run('cat notes/today/plan.txt')).stdout, 'write the tests\n')
  assert.equal(await sbx.files.read('notes/today/plan.txt'), 'write the tests\n')

  await sbx.commands.run('printf made-inside > /tmp/inside.txt')
  assert.equal(await sbx.files.read('/tmp/inside.txt'), 'made-inside')

  const bytes = Uint8Array.from({ length: 256 * 4 }, (_, i) => i % 256)
  await sbx.files.write('/home/user/all-bytes.bin', bytes)
  assert.deepEqual(await sbx.files.read('/home/user/all-bytes.bin', { format: 'bytes' }), bytes)
  assert.equal((await sbx.commands.run('wc -c < all-bytes.bin')).stdout.trim(), '1024')

  const many = await sbx.files.write([{ path: '/home/user/a.txt', data: 'A' }, { path: 'b/b.txt', data: 'B' }])
  assert.deepEqual(many.map((f) => f.path), ['/home/user/a.txt', '/home/user/b/b.txt'])
  assert.equal((await sbx.commands.run('cat a.txt b/b.txt')).stdout, 'AB')

  await assert.rejects(sbx.files.read('/home/user/absent.txt'), (err) => {
    assert.equal(err.name, 'FileNotFoundError')
    assert.equal(err.message, 'no file or folder at /home/user/absent.txt')
    return true
  })
  await assert.rejects(sbx.files.read('/home/user/notes'), /\/home\/user\/notes is a folder/)
  await sbx.kill()
})

/// What `files.remove` moved aside in the sandbox's folder and has not yet deleted,
/// once that is nothing or 30 s have passed.
async function removalsLeft(sbx) {
  const folder = path.join(backend.stateDir, 'sandboxes', sbx.sandboxId)
  const left = () => readdirSync(folder).filter((n) => n.startsWith('.removed-'))
  for (let i = 0; i < 300 && left().length > 0; ++i)
    await new Promise((r) => setTimeout(r, 100))
  return left()
}

/// Runs `body` with a host folder holding one file, then checks that the folder holds
/// exactly that file, unchanged, whatever the sandbox in `body` tried.
async function withHostFolder(fileName, content, body) {
  const outside = mkdtempSync(path.join(tmpdir(), 'sd-outside-'))
  writeFileSync(path.join(outside, fileName), content)
  try {
    await body(outside)
    assert.deepEqual(readdirSync(outside), [fileName])
    assert.equal(readFileSync(path.join(outside, fileName), 'utf8'), content)
  } finally {
    rmSync(outside, { recursive: true, force: true })
  }
}

test('files: links and FIFOs a sandbox leaves never reach the host or hold the backend', async () => {
  await withHostFolder('secret.txt', 'host secret', async (outside) => {
    const sbx = await Sandbox.create('base', backend.opts)
    // Inside the jail the targets are strings; on the host they would be the host's paths.
    await sbx.commands.run(`ln -s ${outside} out; ln -s / root-link; ln -s ${outside}/secret.txt secret-link; mkfifo fifo`)
    for (const p of ['/home/user/out/secret.txt', '/home/user/secret-link', `/home/user/root-link${outside}/secret.txt`,
      `/home/user/../../..${outside}/secret.txt`]) {
      await assert.rejects(sbx.files.read(p), (err) => err.name === 'FileNotFoundError', p)
    }
    for (const p of ['/home/user/out/planted.txt', `/home/user/root-link${outside}/planted.txt`, '/home/user/secret-link']) {
      await sbx.files.write(p, 'planted').catch(() => {})
    }
    // What was written through a link landed inside the sandbox, where the link points there.
    assert.equal((await sbx.commands.run(`cat ${outside}/planted.txt`)).stdout, 'planted')

    await assert.rejects(sbx.files.read('/home/user/fifo'), /\/home\/user\/fifo is not a regular file/)
    await assert.rejects(sbx.files.write('/home/user/fifo', 'x'), /\/home\/user\/fifo is not a regular file/)
    await sbx.kill()
  })
})

test('files: list, exists, getInfo, makeDir, rename, remove', async () => {
  const sbx = await Sandbox.create('base', backend.opts)
  await sbx.commands.run('mkdir -p proj/src/deep && printf 12345 > proj/src/main.py && ln -s src/main.py proj/link && chmod 600 proj/src/main.py')
  const top = await sbx.files.list('/home/user/proj')
  assert.deepEqual(top.map((e) => [e.name, e.type, e.path]).sort(),
    [['link', 'symlink', '/home/user/proj/link'], ['src', 'dir', '/home/user/proj/src']])
  assert.equal(top.find((e) => e.name === 'link').symlinkTarget, 'src/main.py')
  const deep = await sbx.files.list('proj', { depth: 2 })
  assert.deepEqual(deep.map((e) => e.path).sort(),
    ['/home/user/proj/link', '/home/user/proj/src', '/home/user/proj/src/deep', '/home/user/proj/src/main.py'])

  const info = await sbx.files.getInfo('proj/src/main.py')
  assert.equal(info.type, 'file')
  assert.equal(info.size, 5)
  assert.equal(info.permissions, '-rw-------')
  assert.equal(info.mode, 0o600)
  assert.ok(Math.abs(info.modifiedTime.getTime() - Date.now()) < 60_000, String(info.modifiedTime))
  assert.equal(await sbx.files.exists('proj/src/main.py'), true)
  assert.equal(await sbx.files.exists('proj/absent'), false)

  assert.equal(await sbx.files.makeDir('/home/user/new/nested'), true)
  assert.equal(await sbx.files.makeDir('/home/user/new/nested'), false, 'a second makeDir finds it there')
  assert.equal((await sbx.commands.run('test -d new/nested && echo yes')).stdout, 'yes\n')

  const moved = await sbx.files.rename('/home/user/proj/src/main.py', '/home/user/new/app.py')
  assert.equal(moved.path, '/home/user/new/app.py')
  assert.equal((await sbx.commands.run('cat new/app.py')).stdout, '12345')

  await sbx.files.remove('/home/user/proj')
  assert.equal((await sbx.commands.run('test -e proj || echo gone')).stdout, 'gone\n')
  // Moved out of the sandbox's sight at once, deleted soon after.
  assert.deepEqual(await removalsLeft(sbx), [])
  // Nothing there is what remove asks for, as on E2B.
  await sbx.files.remove('/home/user/proj')
  await assert.rejects(sbx.files.list('/home/user/proj'), (err) => err.name === 'FileNotFoundError')
  await sbx.kill()
})

test('files: "~", and a file where a folder is needed, as envd has them', async () => {
  const sbx = await Sandbox.create('base', backend.opts)
  await sbx.files.write('~/t.txt', 'tilde')
  assert.equal((await sbx.commands.run('cat /home/user/t.txt')).stdout, 'tilde')
  assert.equal(await sbx.files.read('~/t.txt'), 'tilde')
  assert.ok((await sbx.files.list('~')).some((e) => e.path === '/home/user/t.txt'))
  const invalid = (message) => (err) => {
    assert.equal(err.name, 'InvalidArgumentError', String(err))
    assert.match(err.message, message)
    return true
  }
  await assert.rejects(sbx.files.list('t.txt'), invalid(/\/home\/user\/t\.txt is not a folder/))
  await assert.rejects(sbx.files.makeDir('t.txt'), invalid(/\/home\/user\/t\.txt exists and is not a folder/))
  await assert.rejects(sbx.files.write('t.txt/child', 'x'), invalid(/\/home\/user\/t\.txt is not a folder/))
  await sbx.kill()
})

test('files: only the folders the sandbox can write are reached, and they stay', async () => {
  const sbx = await Sandbox.create('base', backend.opts)
  const denied = (err) => {
    assert.equal(err.name, 'SandboxError', String(err))
    assert.match(err.message, /is outside the sandbox's own folders \(\/home\/user, \/tmp, \/etc\/mcp-gateway\)/)
    return true
  }
  // Written there, a file would be one no command in the sandbox could see.
  for (const p of ['/usr/x', '/opt/app/x', '/x', '/etc/myconf'])
    await assert.rejects(sbx.files.write(p, 'lost'), denied, p)
  await assert.rejects(sbx.files.list('/'), denied)
  await assert.rejects(sbx.files.makeDir('/var/tmp/x'), denied)
  await assert.rejects(sbx.files.rename('/home/user/.profile', '/opt/profile'), denied)
  const mounted = (err) => /is one of the sandbox's own folders; it cannot be removed or moved/.test(err.message)
  await assert.rejects(sbx.files.remove('/tmp'), mounted)
  await assert.rejects(sbx.files.remove('/home/user'), mounted)
  await assert.rejects(sbx.files.rename('/tmp', '/home/user/t'), mounted)
  assert.equal((await sbx.commands.run('touch /tmp/x && echo ok')).stdout, 'ok\n')
  assert.deepEqual(await removalsLeft(sbx), [])
  await sbx.kill()
})

test('files: list, remove and rename stay in the sandbox too', async () => {
  await withHostFolder('keep.txt', 'host file', async (outside) => {
    const sbx = await Sandbox.create('base', backend.opts)
    await sbx.commands.run(`ln -s ${outside} out; mkdir -p d; ln -s ${outside} d/link`)
    // Listed as a link, never followed out of the sandbox.
    const listed = await sbx.files.list('/home/user/d', { depth: 5 })
    assert.deepEqual(listed.map((e) => [e.name, e.type]), [['link', 'symlink']])
    await assert.rejects(sbx.files.list('/home/user/out'), (err) => err.name === 'FileNotFoundError')
    await assert.rejects(sbx.files.getInfo(`/home/user/out/keep.txt`), (err) => err.name === 'FileNotFoundError')
    // Removing the folder holding the link removes the link, not what it names.
    await sbx.files.remove('/home/user/d')
    assert.deepEqual(await removalsLeft(sbx), []) // deleted, before the host folder is checked
    await sbx.files.remove('/home/user/out/keep.txt') // nothing there in the sandbox
    await assert.rejects(sbx.files.rename('/home/user/out/keep.txt', '/home/user/stolen.txt'), (err) => err.name === 'FileNotFoundError')
    await assert.rejects(sbx.files.watchDir('/home/user', () => {}), /filesystem\.Filesystem\/WatchDir is not implemented by the local envd/)
    await sbx.kill()
  })
})

test('files: uploadUrl and downloadUrl links work without the token, for their sandbox, path and operation only', async () => {
  const sbx = await Sandbox.create('base', backend.opts)
  const other = await Sandbox.create('base', backend.opts)
  const file = '/home/user/signed note.txt'
  const upload = await sbx.uploadUrl(file)
  assert.match(upload, /[?&]signature=v1_/)
  const form = new FormData()
  form.append('file', new Blob(['through a link\n']), 'ignored-name.txt')
  const put = await fetch(upload, { method: 'POST', body: form })
  assert.equal(put.status, 200, await put.clone().text())
  assert.equal(await sbx.files.read(file), 'through a link\n')
  assert.equal(await other.files.exists(file), false)

  // A body past the size sent without credentials: the link is the credential.
  const large = new FormData()
  large.append('file', new Blob(['x'.repeat(300 * 1024)]), 'large.bin')
  const bigPut = await fetch(await sbx.uploadUrl('/home/user/large.bin'), { method: 'POST', body: large })
  assert.equal(bigPut.status, 200, await bigPut.clone().text())
  assert.equal((await sbx.files.getInfo('/home/user/large.bin')).size, 300 * 1024)

  const download = await sbx.downloadUrl(file, { useSignatureExpiration: 600 })
  const got = await fetch(download)
  assert.equal(got.status, 200)
  assert.equal(await got.text(), 'through a link\n')

  const refused = async (url, method, pattern) => {
    const res = await fetch(url, { method })
    assert.equal(res.status, 401)
    assert.match((await res.json()).message, pattern)
  }
  const elsewhere = new URL(download)
  elsewhere.searchParams.set('path', '/home/user/.profile')
  await refused(elsewhere, 'GET', /matches no sandbox/)
  await refused(upload, 'GET', /matches no sandbox/) // a write link does not read
  await refused(await sbx.downloadUrl(file, { useSignatureExpiration: -5 }), 'GET', /expired/)
  await other.kill()
  await sbx.kill()
  await refused(download, 'GET', /matches no sandbox/) // its sandbox is gone
})

test('50 MCP sandboxes created at once all start (each command stream begins with its start)', async () => {
  // A server with options: the gateway prints at once, before its start is seen.
  const mcp = { browserbase: { apiKey: 'key', projectId: 'project', geminiApiKey: 'gemini' } }
  const results = await Promise.allSettled(
    Array.from({ length: 50 }, () => Sandbox.create({ ...backend.opts, mcp })))
  const failed = results.filter((r) => r.status === 'rejected').map((r) => String(r.reason))
  const made = results.filter((r) => r.status === 'fulfilled').map((r) => r.value)
  await Promise.all(made.map((sbx) => sbx.kill()))
  assert.deepEqual(failed, [])
})

test('Sandbox.create with a valid mcp config starts the gateway', async () => {
  const sbx = await Sandbox.create({ ...backend.opts, mcp: VALID_MCP })
  assert.match(sbx.getMcpUrl(), new RegExp(`^https://50005-${sbx.sandboxId}\\..+/mcp$`))
  const procs = await sbx.commands.list()
  assert.ok(procs.some((p) => [p.cmd, ...(p.args ?? [])].join(' ').includes('mcp-gateway serve')), JSON.stringify(procs))
  await sbx.kill()
})

test('2.51.0: a failed gateway start on base throws and leaves nothing running', async () => {
  const before = await running()
  await assert.rejects(Sandbox.create('base', { ...backend.opts, mcp: VALID_MCP }), (err) => {
    assert.ok(err instanceof SandboxError, String(err))
    assert.match(err.message, /^Failed to start MCP gateway: .*command not found/s)
    return true
  })
  assert.deepEqual(await running(), before, 'the failed sandbox was rolled back')
})

test('2.38.2: the same failure leaves the sandbox running (the old orphan bug)', async () => {
  const Old = sdk('e2b-2.38.2').Sandbox
  const before = await running()
  await assert.rejects(Old.create('base', { ...backend.opts, mcp: VALID_MCP }))
  const after = await running()
  const leftover = after.filter((id) => !before.includes(id))
  assert.equal(leftover.length, 1, 'exactly one sandbox is left behind')
  const info = await backend.api('GET', `/sandboxes/${leftover[0]}`)
  assert.equal(info.json.templateID, 'base')
  await backend.api('DELETE', `/sandboxes/${leftover[0]}`)
})
