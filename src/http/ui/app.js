// The docent operator page. It talks only to the server that served it (the HTTP API of docs/http-api.md),
// as a program acting for the operator, with the API key the operator enters. The key is kept in
// sessionStorage (this tab) and nowhere else. Everything the server returns is shown as text, never as markup.

const KEY_STORAGE = 'docent.apiKey';
/** The kinds the server indexes (README "Documentation answers"); other files of a folder are skipped. */
const SUPPORTED = ['.md', '.mdx', '.markdown', '.txt', '.rst', '.html', '.htm', '.adoc', '.asciidoc'];
/** Files per upload request, the server's cap (src/http/routes/documents.ts): larger folders go in several. */
const MAX_FILES_PER_UPLOAD = 100;

const $ = (id) => document.getElementById(id);
const count = new Intl.NumberFormat('en');

const state = {
  key: undefined,
  documents: [],
  libraries: [],
};

class ApiError extends Error {
  constructor(status, code, message, retryAfter) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

// ------------------------------------------------------------------ talking to the server

function parseJson(text) {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The server's `{ error: { code, message } }` as an ApiError (any other body is quoted). */
function errorFrom(status, text, retryAfter) {
  const error = parseJson(text)?.error;
  const code = typeof error?.code === 'string' ? error.code : `http_${status}`;
  const message = typeof error?.message === 'string' ? error.message : text ? text.slice(0, 300) : `The server answered HTTP ${status}.`;
  return new ApiError(status, code, message, retryAfter ?? undefined);
}

function authHeaders() {
  return { authorization: `Bearer ${state.key}` };
}

/** One API call with the key; the parsed JSON body, undefined for 204; an ApiError otherwise. */
async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: { ...authHeaders(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch (error) {
    throw new ApiError(0, 'network_error', `The docent server could not be reached (${error.message}). Check that it is running, then retry.`);
  }
  const text = await response.text();
  if (!response.ok) throw errorFrom(response.status, text, response.headers.get('retry-after'));
  return response.status === 204 ? undefined : parseJson(text);
}

/** POST /v1/documents as multipart, reporting upload progress (bytes sent, total). */
function postFiles(library, files, onProgress) {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('library', library);
    for (const { file, name } of files) form.append('file', file, name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/v1/documents');
    xhr.setRequestHeader('authorization', `Bearer ${state.key}`);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    });
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(parseJson(xhr.responseText));
      else reject(errorFrom(xhr.status, xhr.responseText, xhr.getResponseHeader('retry-after')));
    });
    xhr.addEventListener('error', () =>
      reject(
        new ApiError(
          0,
          'network_error',
          'The upload did not reach the docent server (the connection failed or was closed). Check that it is running; a very large upload may be over its limit.',
        ),
      ),
    );
    xhr.addEventListener('abort', () => reject(new ApiError(0, 'aborted', 'The upload was cancelled.')));
    xhr.send(form);
  });
}

// ------------------------------------------------------------------ messages

function setStatus(message) {
  $('status').textContent = message;
}

function clearError() {
  $('error').hidden = true;
  $('error').textContent = '';
}

/** Shows a failure of `what`; an invalid key also ends the session of this tab. */
function showError(error, what) {
  const box = $('error');
  let message;
  if (!(error instanceof ApiError)) {
    message = `${what} failed: ${error?.message ?? error}`;
  } else if (error.status === 401) {
    message = `The API key was not accepted: check the key (copy it again from \`docent keys create\`; a revoked key no longer works). The server said: ${error.message}`;
  } else if (error.status === 0) {
    message = `${what} failed: ${error.message}`;
  } else {
    const retry = error.retryAfter ? ` Retry after ${error.retryAfter} s.` : '';
    message = `${what} failed (HTTP ${error.status}, ${error.code}): ${error.message}${retry}`;
  }
  box.textContent = message;
  box.hidden = false;
  setStatus('');
  if (error instanceof ApiError && error.status === 401) disconnect();
}

// ------------------------------------------------------------------ formatting

function bytes(n) {
  if (n < 1024) return `${count.format(n)} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

const ofLimit = (used, limit, format = (x) => count.format(x)) => (limit === null ? `${format(used)} (no limit)` : `${format(used)} of ${format(limit)}`);

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'class') node.className = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

/** A link for an http(s) URL only (anything else is shown as text). */
function safeLink(url, text) {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return el('a', { href: parsed.href, rel: 'noopener noreferrer', target: '_blank' }, text);
  } catch {
    // not a URL: shown as text
  }
  return el('span', {}, text);
}

// ------------------------------------------------------------------ key and account

async function connect(key) {
  clearError();
  state.key = key;
  setStatus('Checking the key…');
  let me;
  try {
    me = await api('GET', '/v1/me');
  } catch (error) {
    // A refused key ends the tab's session (showError); any other failure leaves the key to retry with.
    state.key = undefined;
    $('api-key').value = key;
    showError(error, 'Connecting');
    return;
  }
  sessionStorage.setItem(KEY_STORAGE, key);
  $('api-key').value = '';
  $('forget-key').hidden = false;
  $('workspace').hidden = false;
  renderMe(me);
  setStatus(`Connected: tenant ${me.tenant}, ${me.plan ?? 'no'} plan.`);
  await loadDocuments();
}

function disconnect() {
  state.key = undefined;
  state.documents = [];
  state.libraries = [];
  sessionStorage.removeItem(KEY_STORAGE);
  $('workspace').hidden = true;
  $('forget-key').hidden = true;
  $('answer').hidden = true;
  $('document-list').replaceChildren();
}

function renderMe(me) {
  const { limits, usage } = me;
  $('me-tenant').textContent = me.tenant;
  $('me-key').textContent = me.key_id ?? 'none (the server runs without keys)';
  $('me-plan').textContent = me.plan ?? 'none';
  $('me-minute').textContent = usage.requests_this_minute === null ? 'no per-minute limit' : ofLimit(usage.requests_this_minute, limits.requests_per_minute);
  $('me-month').textContent =
    usage.requests_this_month === null
      ? 'not counted'
      : `${ofLimit(usage.requests_this_month, limits.requests_per_month)} in ${usage.month} (resets ${usage.month_resets_at.slice(0, 10)}, UTC)`;
  $('me-bytes').textContent = ofLimit(usage.document_bytes, limits.document_bytes, bytes);
}

async function refreshMe() {
  if (!state.key) return;
  try {
    renderMe(await api('GET', '/v1/me'));
  } catch (error) {
    showError(error, 'Reading the usage');
  }
}

// ------------------------------------------------------------------ documents

async function loadDocuments() {
  if (!state.key) return;
  // The list says it is being refreshed (assistive technology, and anyone waiting for it to settle).
  const list = $('document-list');
  list.setAttribute('aria-busy', 'true');
  try {
    const loaded = await api('GET', '/v1/documents');
    state.documents = loaded.documents;
    state.libraries = loaded.libraries;
  } catch (error) {
    showError(error, 'Listing the documents');
    return;
  } finally {
    list.removeAttribute('aria-busy');
  }
  renderDocuments();
  renderLibraryChoice();
}

function matches(doc, filter) {
  return !filter || doc.title.toLowerCase().includes(filter) || doc.library.toLowerCase().includes(filter);
}

function renderDocuments() {
  const filter = $('filter').value.trim().toLowerCase();
  const list = $('document-list');
  const sets = [];
  let shown = 0;
  for (const { library, documents, chars } of state.libraries) {
    const docs = state.documents.filter((d) => d.library === library && matches(d, filter));
    if (!docs.length) continue;
    shown += docs.length;
    const items = docs.map((doc) =>
      el(
        'li',
        { 'data-id': doc.id },
        el('span', { class: 'doc-title' }, doc.url ? safeLink(doc.url, doc.title) : doc.title),
        el(
          'span',
          { class: 'meta' },
          ` ${doc.content_type} · ${bytes(doc.chars)} · ${count.format(doc.chunks)} ${doc.chunks === 1 ? 'chunk' : 'chunks'} · ${doc.updated_at.slice(0, 10)}`,
        ),
        button('Delete', `Delete ${doc.title} from the set ${doc.library}`, () => deleteDocument(doc)),
      ),
    );
    sets.push(
      el(
        'section',
        { class: 'set', 'data-library': library, 'aria-label': `Document set ${library}` },
        el(
          'div',
          { class: 'set-head' },
          el('h3', {}, library, el('span', { class: 'meta' }, ` ${count.format(documents)} ${documents === 1 ? 'document' : 'documents'} · ${bytes(chars)}`)),
          button('Delete set', `Delete the set ${library} (${documents} documents)`, () => deleteLibrary(library, documents), 'danger'),
        ),
        el('ul', { class: 'docs' }, ...items),
      ),
    );
  }
  list.replaceChildren(...sets);
  const total = state.documents.length;
  $('documents-summary').textContent = !total
    ? 'No documents yet: upload some above.'
    : !shown
      ? `No document matches “${$('filter').value.trim()}”.`
      : `${count.format(shown)} of ${count.format(total)} documents in ${count.format(sets.length)} of ${count.format(state.libraries.length)} sets.`;
}

function button(text, label, onClick, kind = 'secondary') {
  const node = el('button', { type: 'button', class: kind, 'aria-label': label }, text);
  node.addEventListener('click', () => void onClick());
  return node;
}

function renderLibraryChoice() {
  const select = $('ask-library');
  const current = select.value;
  select.replaceChildren(el('option', { value: '' }, 'All sets'), ...state.libraries.map(({ library }) => el('option', { value: library }, library)));
  select.value = state.libraries.some((l) => l.library === current) ? current : '';
}

/** After a deletion the focused button is gone: focus goes to the list's heading. */
function focusDocuments() {
  const heading = $('documents-heading');
  heading.setAttribute('tabindex', '-1');
  heading.focus();
}

async function deleteDocument(doc) {
  if (!window.confirm(`Delete “${doc.title}” from the set “${doc.library}”? This cannot be undone.`)) return;
  clearError();
  try {
    await api('DELETE', `/v1/documents/${encodeURIComponent(doc.id)}`);
    setStatus(`Deleted ${doc.title} from the set ${doc.library}.`);
  } catch (error) {
    showError(error, `Deleting ${doc.title}`);
  }
  await loadDocuments();
  focusDocuments();
  void refreshMe();
}

async function deleteLibrary(library, documents) {
  if (!window.confirm(`Delete the whole set “${library}” (${documents} ${documents === 1 ? 'document' : 'documents'})? This cannot be undone.`)) return;
  clearError();
  try {
    const result = await api('DELETE', `/v1/documents?library=${encodeURIComponent(library)}`);
    setStatus(`Deleted the set ${library} (${result.removed} ${result.removed === 1 ? 'document' : 'documents'}).`);
  } catch (error) {
    showError(error, `Deleting the set ${library}`);
  }
  await loadDocuments();
  focusDocuments();
  void refreshMe();
}

// ------------------------------------------------------------------ uploads

const supported = (name) => SUPPORTED.some((ext) => name.toLowerCase().endsWith(ext));
/** Hidden entries and node_modules are skipped in folders, as `docent ingest` does. */
const skippedPath = (path) => path.split('/').some((segment) => segment.startsWith('.') || segment === 'node_modules');

/** Files of a folder: names relative to it; unsupported kinds and hidden entries left out (and named). */
function folderFiles(entries) {
  const files = [];
  const skipped = [];
  for (const entry of entries) {
    if (skippedPath(entry.name)) continue;
    if (supported(entry.name)) files.push(entry);
    else skipped.push(entry.name);
  }
  return { files, skipped };
}

/** Uploads into the set named on the page, in requests of at most MAX_FILES_PER_UPLOAD files. */
async function upload(files, skipped = []) {
  clearError();
  const library = $('library').value.trim() || 'default';
  if (!files.length) {
    showError(
      new Error(skipped.length ? `none of the ${skipped.length} files is of a supported kind (${SUPPORTED.join(' ')})` : 'no files were chosen'),
      'Uploading',
    );
    return;
  }
  const row = $('upload-progress-row');
  const bar = $('upload-progress');
  const totalBytes = files.reduce((sum, f) => sum + f.file.size, 0) || 1;
  let sentBefore = 0;
  bar.value = 0;
  row.hidden = false;
  $('upload').setAttribute('aria-busy', 'true');
  const tally = { added: 0, updated: 0, unchanged: 0 };
  let done = 0;
  try {
    for (let i = 0; i < files.length; i += MAX_FILES_PER_UPLOAD) {
      const batch = files.slice(i, i + MAX_FILES_PER_UPLOAD);
      const batchBytes = batch.reduce((sum, f) => sum + f.file.size, 0);
      setStatus(`Uploading ${files.length === 1 ? files[0].name : `${count.format(files.length)} files`} to the set ${library}…`);
      const result = await postFiles(library, batch, (loaded, total) => {
        bar.value = Math.min(100, Math.round(((sentBefore + (loaded / total) * batchBytes) / totalBytes) * 100));
      });
      sentBefore += batchBytes;
      for (const doc of result.documents) tally[doc.status] = (tally[doc.status] ?? 0) + 1;
      done += batch.length;
    }
    bar.value = 100;
    const parts = Object.entries(tally)
      .filter(([, n]) => n > 0)
      .map(([status, n]) => `${n} ${status}`);
    const skippedNote = skipped.length
      ? ` Skipped ${skipped.length} ${skipped.length === 1 ? 'file' : 'files'} of other kinds: ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ', …' : ''}.`
      : '';
    setStatus(`Uploaded ${count.format(done)} ${done === 1 ? 'document' : 'documents'} to the set ${library} (${parts.join(', ')}).${skippedNote}`);
  } catch (error) {
    const partial = done ? ` (${done} of ${files.length} files were uploaded before this)` : '';
    showError(error, `Uploading to the set ${library}${partial}`);
  } finally {
    $('upload').removeAttribute('aria-busy');
    row.hidden = true;
  }
  await loadDocuments();
  void refreshMe();
}

function readAllEntries(reader) {
  return new Promise((resolve, reject) => {
    const all = [];
    const next = () =>
      reader.readEntries((batch) => {
        if (!batch.length) resolve(all);
        else {
          all.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

const fileOf = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));

async function walk(entry, prefix, out) {
  const name = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (skippedPath(entry.name)) return;
  if (entry.isFile) out.push({ file: await fileOf(entry), name });
  else if (entry.isDirectory) for (const child of await readAllEntries(entry.createReader())) await walk(child, name, out);
}

/** Dropped files go as they are; dropped folders are read whole (names relative to the folder when one folder is dropped). */
async function uploadDropped(loose, folders) {
  const entries = [];
  try {
    for (const folder of folders) {
      const inside = [];
      for (const child of await readAllEntries(folder.createReader())) await walk(child, '', inside);
      const prefix = folders.length === 1 && !loose.length ? '' : `${folder.name}/`;
      entries.push(...inside.map((e) => ({ file: e.file, name: prefix + e.name })));
    }
  } catch (error) {
    showError(error, 'Reading the dropped folder');
    return;
  }
  const { files, skipped } = folderFiles(entries);
  await upload([...loose.map((file) => ({ file, name: file.name })), ...files], skipped);
}

function setUpDropZone() {
  const zone = $('drop-zone');
  // A drop that misses the zone must not make the browser open the file instead of the page.
  for (const type of ['dragover', 'drop']) window.addEventListener(type, (event) => event.preventDefault());
  zone.addEventListener('dragenter', (event) => {
    event.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
  });
  zone.addEventListener('dragleave', (event) => {
    if (!zone.contains(event.relatedTarget)) zone.classList.remove('dragging');
  });
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    event.stopPropagation();
    zone.classList.remove('dragging');
    const transfer = event.dataTransfer;
    if (!transfer || !state.key) return;
    // Items are readable only during the event: take the files and folder entries now.
    const loose = [];
    const folders = [];
    const items = [...(transfer.items ?? [])].filter((item) => item.kind === 'file');
    if (items.length) {
      for (const item of items) {
        const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
        if (entry && entry.isDirectory) folders.push(entry);
        else {
          const file = item.getAsFile();
          if (file) loose.push(file);
        }
      }
    } else {
      loose.push(...transfer.files);
    }
    void uploadDropped(loose, folders);
  });
}

// ------------------------------------------------------------------ questions

function renderAnswer(result) {
  const box = $('answer');
  const confidence = `${Math.round(result.confidence * 100)}%`;
  $('answer-heading').textContent = result.grounded ? 'Answer' : 'No match';
  $('answer-confidence').textContent = `Confidence: ${confidence}`;
  const text = $('answer-text');
  text.classList.toggle('no-match', !result.grounded);
  text.textContent = result.grounded ? (result.answer ?? '') : result.reason || 'The documentation does not answer this question.';
  $('sources-heading').textContent = result.grounded ? 'Sources' : 'Closest documents (they do not answer it)';
  $('sources-heading').hidden = !result.sources.length;
  $('answer-sources').replaceChildren(
    ...result.sources.map((source) =>
      el(
        'li',
        {},
        source.url ? safeLink(source.url, source.title) : el('span', { class: 'doc-title' }, source.title),
        source.section ? el('span', { class: 'meta' }, ` › ${source.section}`) : null,
        el('span', { class: 'meta' }, ` · set ${source.library} · `),
        el('code', {}, source.uri),
      ),
    ),
  );
  box.hidden = false;
  return confidence;
}

async function ask() {
  const question = $('question').value.trim();
  if (!question) {
    showError(new Error('type a question first'), 'Asking');
    $('question').focus();
    return;
  }
  clearError();
  const library = $('ask-library').value;
  const button = $('ask-button');
  button.disabled = true;
  setStatus('Searching the documentation…');
  try {
    const result = await api('POST', '/v1/query', { question, ...(library ? { library } : {}) });
    const confidence = renderAnswer(result);
    setStatus(result.grounded ? `Answered, with ${confidence} confidence.` : 'No match: the documentation does not answer this question.');
  } catch (error) {
    showError(error, 'Asking');
  } finally {
    button.disabled = false;
  }
  void refreshMe();
}

// ------------------------------------------------------------------ wiring

function start() {
  $('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const key = $('api-key').value.trim();
    if (!key) {
      showError(new Error('enter an API key first'), 'Connecting');
      $('api-key').focus();
      return;
    }
    void connect(key);
  });
  $('forget-key').addEventListener('click', () => {
    disconnect();
    clearError();
    setStatus('The key is forgotten in this tab.');
    $('api-key').focus();
  });
  $('refresh').addEventListener('click', () => {
    void refreshMe();
    void loadDocuments();
  });
  $('upload-form').addEventListener('submit', (event) => event.preventDefault());
  $('files').addEventListener('change', (event) => {
    const input = event.target;
    const files = [...input.files].map((file) => ({ file, name: file.name }));
    input.value = '';
    void upload(files);
  });
  $('folder').addEventListener('change', (event) => {
    const input = event.target;
    // webkitRelativePath starts with the chosen folder's own name: titles are relative to that folder.
    const entries = [...input.files].map((file) => ({ file, name: (file.webkitRelativePath || file.name).split('/').slice(1).join('/') || file.name }));
    input.value = '';
    const { files, skipped } = folderFiles(entries);
    void upload(files, skipped);
  });
  setUpDropZone();
  $('filter').addEventListener('input', renderDocuments);
  $('ask-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void ask();
  });
  // Enter asks; Shift+Enter starts a new line.
  $('question').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      $('ask-form').requestSubmit();
    }
  });

  const saved = sessionStorage.getItem(KEY_STORAGE);
  if (saved) void connect(saved);
  else $('api-key').focus();
}

start();
