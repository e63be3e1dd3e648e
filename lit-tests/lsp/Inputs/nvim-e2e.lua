-- End-to-end test with a real editor: Neovim (0.7, Debian) starts `ivc lsp`
-- for a Python file, receives its diagnostics, and applies its quick fixes;
-- then types a line. Writes what it saw to $OUT for FileCheck; any failure
-- ends Neovim with status 1. Run by lit-tests/lsp/neovim.test.
local ivc, file, out = os.getenv('IVC'), os.getenv('FILE'), os.getenv('OUT')
local lines = {}
local function say(s) table.insert(lines, s) end
local function finish(status)
  local f = io.open(out, 'w')
  f:write(table.concat(lines, '\n') .. '\n')
  f:close()
  vim.cmd(status == 0 and 'qall!' or 'cquit 1')
end

local function run()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = 'ivc',
    cmd = { ivc, 'lsp' },
    root_dir = vim.fn.fnamemodify(file, ':h'),
  })
  assert(client_id, 'could not start ivc lsp')
  vim.lsp.buf_attach_client(buf, client_id)
  local client = vim.lsp.get_client_by_id(client_id)

  local function diagnostics()
    local ds = vim.diagnostic.get(buf)
    table.sort(ds, function(a, b) return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col) end)
    return ds
  end
  local function code(d) return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) end
  local function show(label)
    for _, d in ipairs(diagnostics()) do
      say(string.format('%s: %d:%d-%d:%d %s severity=%d', label, d.lnum, d.col, d.end_lnum,
        d.end_col, code(d), d.severity))
    end
  end
  local function waitFor(what, cond)
    assert(vim.wait(20000, cond, 20), 'timed out waiting for ' .. what)
  end
  local function fix(line, prefix)
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      range = { start = { line = line, character = 0 }, ['end'] = { line = line, character = 0 } },
      context = { diagnostics = {} },
    }
    local answers = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000)
    assert(answers and answers[client_id], 'no code actions')
    for _, action in ipairs(answers[client_id].result or {}) do
      say('action on line ' .. line .. ': ' .. action.title)
    end
    for _, action in ipairs(answers[client_id].result or {}) do
      if action.title:sub(1, #prefix) == prefix then
        vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
        return
      end
    end
    error('no action "' .. prefix .. '" on line ' .. line)
  end
  local function has(wanted)
    for _, d in ipairs(diagnostics()) do
      if code(d) == wanted then return true end
    end
    return false
  end

  waitFor('diagnostics', function() return #diagnostics() > 0 end)
  say('encoding: ' .. client.offset_encoding)
  show('opened')

  -- Suppress the IVC101 on line 6, which has non-ASCII text before it.
  fix(6, 'Suppress with')
  -- Remove `import subprocess` (line 5) with its fix-it.
  fix(5, 'remove the import')
  waitFor('the fixes to clear the diagnostics', function() return #diagnostics() == 0 end)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    say(string.format('buffer %d: %s', i - 1, l))
  end

  -- Type a new line in the trace body; the server must see Neovim's
  -- incremental edit at the right place.
  vim.api.nvim_buf_set_lines(buf, 5, 5, false, { "    eval('x')" })
  waitFor('IVC102 after typing', function() return has('IVC102') end)
  show('typed')

  vim.lsp.stop_client(client_id)
  vim.wait(5000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
end

local ok, err = pcall(run)
if not ok then
  say('ERROR: ' .. tostring(err))
  finish(1)
else
  finish(0)
end
