// The /jobs page: a key's recent jobs (GET /v2/jobs) and the history of the one selected (GET /v2/jobs/{id}/events).
// Plain DOM, no framework and no build. Everything the API returns is put on the page as text (textContent), never
// as markup: a job's error message or a webhook URL is data, not HTML. The page's CSP allows only its own script.

const KEY_STORE = 'folio-key';
const $ = (selector) => document.querySelector(selector);

const state = { key: sessionStorage.getItem(KEY_STORE) ?? '', next: null, eventsNext: null, selected: null };

/** GET an API path with the key; answers the body, or throws the interface's error message. */
async function api(path) {
  const response = await fetch(path, { headers: { authorization: `Bearer ${state.key}`, accept: 'application/json' } });
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const error = body?.error;
    const retry = response.headers.get('retry-after');
    throw new Error(error ? `${error.code}: ${error.message}${retry ? ` (try again in ${retry} s)` : ''}` : `the API answered ${response.status}`);
  }
  return body;
}

function say(message) {
  const box = $('#message');
  box.textContent = message ?? '';
  box.hidden = !message;
}

/** An element with text and optional class. */
function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

const time = (iso) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' }) : '');
const seconds = (ms) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

function jobRow(job) {
  const row = el('tr');
  row.dataset.jobId = job.job_id;
  row.tabIndex = 0;
  row.setAttribute('aria-selected', String(job.job_id === state.selected));
  const took = job.finished_at ? seconds(Date.parse(job.finished_at) - Date.parse(job.created_at)) : '…';
  const outcome = job.error ? `${job.error.code}: ${job.error.message}` : job.result?.file_url ? `${job.result.size_bytes} bytes` : job.result ? `${job.result.document?.word_count ?? 0} words` : '';
  const id = el('td');
  id.append(el('code', job.job_id));
  row.append(el('td', time(job.created_at)), id, el('td', job.status, `status-${job.status}`), el('td', job.result?.output ?? job.output ?? '—'), el('td', took), el('td', outcome));
  const open = () => showHistory(job.job_id);
  row.addEventListener('click', open);
  row.addEventListener('keydown', (event) => event.key === 'Enter' && open());
  return row;
}

async function loadJobs({ more = false } = {}) {
  const filters = new FormData($('#filters'));
  const query = new URLSearchParams({ limit: '25' });
  for (const name of ['status', 'output']) if (filters.get(name)) query.set(name, filters.get(name));
  if (more && state.next) query.set('cursor', state.next);
  try {
    const page = await api(`/v2/jobs?${query}`);
    const body = $('#job-table tbody');
    if (!more) body.replaceChildren();
    for (const job of page.data) body.append(jobRow(job));
    state.next = page.next_cursor;
    $('#more').hidden = !state.next;
    $('#empty').hidden = body.children.length > 0;
    $('#jobs').hidden = false;
    say(null);
  } catch (error) {
    say(error.message);
  }
}

/** One line of a job's history: when (and how long after it was queued), what, and where in the log it sits. */
function historyEntry(entry, startedAt) {
  const item = el('li', undefined, entry.effective === false ? 'ignored' : '');
  item.dataset.kind = entry.kind;
  const after = startedAt === null ? '' : ` (+${seconds(Date.parse(entry.occurred_at) - startedAt)})`;
  item.append(el('span', `${time(entry.occurred_at)}${after}`, 'when'), el('strong', entry.kind.replaceAll('_', ' ')));
  const details = [];
  if (entry.kind === 'queued') details.push(`${entry.input} → ${entry.output}`, `${entry.lane} lane`, entry.webhook_url && `callback to ${entry.webhook_url}`, entry.rerun_of && `rerun of ${entry.rerun_of}`);
  if (entry.attempt !== undefined && entry.attempt !== null) details.push(`attempt ${entry.attempt}`);
  if (entry.worker) details.push(`by ${entry.worker}`);
  if (entry.duration_ms !== undefined) details.push(`took ${seconds(entry.duration_ms)}`);
  if (entry.kind === 'webhook_attempt') details.push(entry.status_code ? `answered ${entry.status_code}` : 'no answer', entry.outcome.replaceAll('_', ' '), entry.error);
  if (entry.kind === 'failed' && entry.error) details.push(`${entry.error.code}: ${entry.error.message}`);
  if (entry.kind === 'rerun') details.push(`new job ${entry.rerun_job_id}`);
  if (entry.effective === false) details.push('ignored: the job had already ended');
  const text = details.filter(Boolean).join(' · ');
  if (text) item.append(el('span', ` — ${text}`));
  item.append(el('span', `${entry.event_type} · ${entry.topic} / partition ${entry.partition} @ offset ${entry.offset}`, 'where'));
  return item;
}

async function showHistory(jobId, { more = false } = {}) {
  state.selected = jobId;
  for (const row of document.querySelectorAll('#job-table tbody tr')) row.setAttribute('aria-selected', String(row.dataset.jobId === jobId));
  const query = new URLSearchParams();
  if (more && state.eventsNext) query.set('cursor', state.eventsNext);
  try {
    const page = await api(`/v2/jobs/${encodeURIComponent(jobId)}/events${query.size ? `?${query}` : ''}`);
    const list = $('#events');
    if (!more) {
      // Times are shown after the first event (queued): the rest of a page follows it.
      list.replaceChildren();
      if (page.data[0]) list.dataset.startedAt = String(Date.parse(page.data[0].occurred_at));
      else delete list.dataset.startedAt;
    }
    const first = list.dataset.startedAt ? Number(list.dataset.startedAt) : null;
    for (const entry of page.data) list.append(historyEntry(entry, first));
    state.eventsNext = page.next_cursor;
    $('#more-events').hidden = !state.eventsNext;
    $('#timeline-job').textContent = jobId;
    $('#timeline').hidden = false;
    say(null);
  } catch (error) {
    say(error.message);
  }
}

function useKey(key) {
  state.key = key.trim();
  state.next = null;
  state.selected = null;
  $('#timeline').hidden = true;
  if (state.key) sessionStorage.setItem(KEY_STORE, state.key);
  $('#forget').hidden = !state.key;
  if (state.key) void loadJobs();
}

$('#key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  useKey($('#key').value);
});
$('#forget').addEventListener('click', () => {
  sessionStorage.removeItem(KEY_STORE);
  $('#key').value = '';
  state.key = '';
  $('#forget').hidden = true;
  $('#jobs').hidden = true;
  say(null);
});
$('#filters').addEventListener('submit', (event) => {
  event.preventDefault();
  void loadJobs();
});
$('#more').addEventListener('click', () => void loadJobs({ more: true }));
$('#more-events').addEventListener('click', () => state.selected && void showHistory(state.selected, { more: true }));

if (state.key) {
  $('#key').value = state.key;
  useKey(state.key);
}
