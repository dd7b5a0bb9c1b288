// The Perpetua console page: reads the API with the bearer token (kept in this tab's sessionStorage,
// handed over once in the URL fragment, which never reaches a server or a log), listens to the
// server-sent event stream through fetch (EventSource cannot send a header) and draws its charts
// with lightweight-charts, served from this origin.
'use strict';

const $ = (id) => document.getElementById(id);
const state = { token: '', symbol: '', info: null, priceLines: [], markers: null, refreshQueued: false };

function takeToken() {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (m) {
    sessionStorage.setItem('perpetua-token', decodeURIComponent(m[1]));
    history.replaceState(null, '', location.pathname);
  }
  return sessionStorage.getItem('perpetua-token') || '';
}

async function api(path, body) {
  const init = { headers: { authorization: `Bearer ${state.token}` } };
  if (body !== undefined) {
    init.method = 'POST';
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  if (res.status === 401) {
    sessionStorage.removeItem('perpetua-token');
    showLogin('The token was refused.');
    throw new Error('unauthorised');
  }
  const json = await res.json();
  if (!res.ok) throw new Error(json.message || `HTTP ${res.status}`);
  return json;
}

function showLogin(message) {
  $('main').hidden = true;
  $('login').hidden = false;
  if (message) notice(message);
}

function notice(text) {
  const n = $('notice');
  n.textContent = text;
  n.hidden = !text;
}

/** Long decimals (averages, PnL) are shown to 8 places; the API keeps them exact. */
const shown = (v) => (typeof v === 'string' && /^-?\d+\.\d{9,}$/.test(v) ? String(Number(Number(v).toFixed(8))) : v);

function cell(text, cls) {
  const td = document.createElement('td');
  td.textContent = text === null || text === undefined ? '–' : String(shown(text));
  if (cls) td.className = cls;
  return td;
}

function fillTable(id, rows, columns) {
  const body = $(id).querySelector('tbody');
  body.replaceChildren(
    ...rows.map((r) => {
      const tr = document.createElement('tr');
      for (const c of columns) tr.append(typeof c === 'function' ? c(r) : cell(r[c]));
      return tr;
    }),
  );
}

const time = (ms) => new Date(ms).toLocaleTimeString();
const side = (r) => cell(r.side, r.side);

// ------------------------------------------------------------------ confirmation

let pending = null;
function ask(text, action) {
  pending = action;
  $('confirm-text').textContent = text;
  $('confirm').hidden = false;
}
$('confirm-no').addEventListener('click', () => {
  pending = null;
  $('confirm').hidden = true;
});
$('confirm-yes').addEventListener('click', () => void confirmPending());
async function confirmPending() {
  const action = pending;
  pending = null;
  $('confirm').hidden = true;
  if (!action) return;
  try {
    notice(await action());
  } catch (e) {
    notice(`refused: ${e.message}`);
  }
  await refresh();
}

async function control(id, action) {
  const r = await api(`/api/strategies/${encodeURIComponent(id)}/${action}`, { confirm: true });
  return `${action} ${id}: ${r.done.join('; ')}`;
}

$('stop-run').addEventListener('click', () =>
  ask('Stop the whole run? Strategies stop and their orders are cancelled (unless cancelOnExit is off).', async () => {
    const r = await api('/api/stop', { confirm: true, reason: 'stopped from the web console' });
    return `stopping: ${r.reason}`;
  }),
);

// ------------------------------------------------------------------ views

function renderStatus(s) {
  const parts = [
    `<b>${s.mode}</b> on ${s.venue}`,
    `up ${Math.round(s.uptimeMs / 1000)} s`,
    `equity <b>${s.equity ?? '–'}</b> ${s.valuationAsset}`,
    `drawdown ${s.drawdown === null ? '–' : (Number(s.drawdown) * 100).toFixed(2) + ' %'}`,
    `kill switch ${s.killSwitch ? `<b>TRIPPED</b> ${s.killSwitch}` : 'armed'}`,
  ];
  $('status').innerHTML = parts.join(' · ').replace(/<(?!\/?b>)/g, '&lt;');
  $('asset').textContent = s.valuationAsset;
}

function renderStrategies(list) {
  $('strategies').replaceChildren(
    ...list.map((s) => {
      const card = document.createElement('div');
      card.className = 'card';
      card.dataset.strategy = s.id;
      const h = document.createElement('h3');
      h.textContent = `${s.id} · ${s.name}`;
      const st = document.createElement('span');
      st.className = `state ${s.state}`;
      st.textContent = s.state;
      h.append(st);
      const dl = document.createElement('dl');
      const row = (k, v) => {
        const dt = document.createElement('dt');
        dt.textContent = k;
        const dd = document.createElement('dd');
        dd.textContent = shown(v) ?? '–';
        dl.append(dt, dd);
      };
      row('instruments', s.instruments.join(', '));
      row('open orders', s.openOrders);
      row('realized PnL', s.realizedPnl);
      row('unrealized PnL', s.unrealizedPnl);
      row('placed / fills / denials', s.counters ? `${s.counters.placed} / ${s.counters.fills} / ${s.counters.denials}` : '–');
      const actions = document.createElement('div');
      actions.className = 'actions';
      const button = (label, action, text) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = label;
        b.dataset.action = action;
        b.addEventListener('click', () => ask(text, () => control(s.id, action)));
        actions.append(b);
      };
      if (s.state === 'paused') button('Resume', 'resume', `Resume ${s.id}?`);
      else button('Pause', 'pause', `Pause ${s.id}? It stops acting; its orders stay.`);
      button('Cancel orders', 'cancel-orders', `Cancel every open order of ${s.id}?`);
      button('Flatten', 'flatten', `Cancel the orders of ${s.id} and close its positions at market?`);
      card.append(h, dl, actions);
      return card;
    }),
  );
}

function renderPositions(p) {
  const rows = [...p.account.map((x) => ({ ...x, strategy: 'account' }))];
  for (const [id, list] of Object.entries(p.strategies)) for (const x of list) rows.push({ ...x, strategy: id });
  fillTable('positions', rows, ['symbol', 'leg', 'quantity', 'entryPrice', 'strategy']);
}

// ------------------------------------------------------------------ charts

let equityChart, equitySeries, priceChart, priceSeries;
function makeCharts() {
  const LW = window.LightweightCharts;
  const line = { color: '#222c36' };
  const opts = {
    layout: { background: { color: '#182029' }, textColor: '#8a96a3' },
    grid: { vertLines: line, horzLines: line },
    timeScale: { timeVisible: true, secondsVisible: true },
    autoSize: true,
  };
  equityChart = LW.createChart($('chart-equity'), opts);
  equitySeries = equityChart.addSeries(LW.LineSeries, { color: '#4da3ff', lineWidth: 2 });
  priceChart = LW.createChart($('chart-price'), opts);
  priceSeries = priceChart.addSeries(LW.LineSeries, { color: '#d8dee6', lineWidth: 1 });
  state.markers = LW.createSeriesMarkers(priceSeries, []);
}

/** One point per second, ascending (the chart refuses equal or falling times). */
function points(samples, pick) {
  const out = [];
  for (const s of samples) {
    const v = pick(s);
    if (v === null || v === undefined) continue;
    const t = Math.floor(s.ts / 1000);
    if (out.length && out[out.length - 1].time >= t) out[out.length - 1] = { time: out[out.length - 1].time, value: Number(v) };
    else out.push({ time: t, value: Number(v) });
  }
  return out;
}

const colour = (side) => (side === 'buy' ? '#26a69a' : '#ef5350');

function renderCharts(samples, orders, fills) {
  equitySeries.setData(points(samples, (s) => s.equity));
  priceSeries.setData(points(samples, (s) => s.mids[state.symbol]));
  for (const l of state.priceLines) priceSeries.removePriceLine(l);
  state.priceLines = orders
    .filter((o) => o.symbol === state.symbol && o.price !== null)
    .map((o) =>
      priceSeries.createPriceLine({
        price: Number(o.price),
        color: colour(o.side),
        lineWidth: 1,
        lineStyle: 2,
        axisLabelVisible: true,
        title: `${o.strategyId} ${o.side}`,
      }),
    );
  const first = samples.length ? Math.floor(samples[0].ts / 1000) : 0;
  state.markers.setMarkers(
    fills
      .filter((f) => f.symbol === state.symbol && Math.floor(f.ts / 1000) >= first)
      .map((f) => {
        const buy = f.side === 'buy';
        const at = Math.floor(f.ts / 1000);
        const shape = buy ? 'arrowUp' : 'arrowDown';
        return { time: at, position: buy ? 'belowBar' : 'aboveBar', color: colour(f.side), shape, text: `${f.side} ${f.quantity}` };
      })
      .sort((a, b) => a.time - b.time),
  );
}

// ------------------------------------------------------------------ refresh and live stream

async function refresh() {
  const [status, strategies, positions, orders, fills, balances, denials, logs, samples, webhook] = await Promise.all([
    api('/api/status'),
    api('/api/strategies'),
    api('/api/positions'),
    api('/api/orders'),
    api('/api/fills?limit=200'),
    api('/api/balances'),
    api('/api/denials?limit=100'),
    api('/api/logs?limit=100'),
    api('/api/series?limit=900'),
    api('/api/webhook'),
  ]);
  if (!state.symbol) {
    state.symbol = status.instruments[0] || '';
    const option = (s) => Object.assign(document.createElement('option'), { value: s, textContent: s });
    $('symbol').replaceChildren(...status.instruments.map(option));
  }
  renderStatus(status);
  renderStrategies(strategies);
  renderPositions(positions);
  fillTable('orders', orders, ['strategyId', 'symbol', side, 'price', 'quantity', 'filled', 'status']);
  const fee = (f) => cell(`${f.fee} ${f.feeAsset}`);
  fillTable('fills', [...fills].reverse(), [(f) => cell(time(f.ts)), 'strategyId', 'symbol', side, 'price', 'quantity', fee]);
  fillTable('balances', balances, ['asset', 'free', 'locked']);
  fillTable('denials', [...denials].reverse(), [(d) => cell(time(d.ts)), 'strategyId', 'intent', 'rule', 'reason']);
  $('logs').textContent = logs.map((l) => `${time(l.ts)} ${l.level} ${l.message}`).join('\n');
  renderCharts(samples, orders, fills);
  renderWebhook(webhook);
  document.body.dataset.refreshed = String((Number(document.body.dataset.refreshed) || 0) + 1);
}

/** The webhook section: its target (host only), counts, and the last deliveries with their failures. */
function renderWebhook(w) {
  if (!w.configured) {
    $('webhook-target').textContent = 'No webhook configured (console.webhook in the run config).';
    fillTable('webhook', [], []);
    return;
  }
  const s = w.stats;
  const waiting = w.queued ? `, ${w.queued} waiting` : '';
  $('webhook-target').textContent =
    `POST to ${w.host} on ${w.events.join(', ')} — ${s.sent} delivered, ${s.failed} failed${waiting} ` +
    `(up to ${w.maxAttempts} attempts, first retry after ${w.retryDelayMs} ms)`;
  const result = (d) => cell(d.delivered ? 'delivered' : `failed: ${d.error}`, d.delivered ? 'buy' : 'sell');
  fillTable('webhook', [...w.deliveries].reverse(), [(d) => cell(time(d.ts)), 'kind', result, 'attempts', 'text']);
}

/** Coalesces refreshes: a burst of events costs one round of requests. */
function queueRefresh() {
  if (state.refreshQueued) return;
  state.refreshQueued = true;
  setTimeout(() => {
    state.refreshQueued = false;
    refresh().catch((e) => notice(`refresh failed: ${e.message}`));
  }, 150);
}

async function stream() {
  for (;;) {
    try {
      const res = await fetch('/api/stream', { headers: { authorization: `Bearer ${state.token}` } });
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      $('live').className = 'live on';
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const kind = /^event: (\w+)/m.exec(block);
          if (!kind) continue;
          if (kind[1] === 'event') queueRefresh();
          else if (kind[1] === 'sample') {
            const s = JSON.parse(/^data: (.*)$/m.exec(block)[1]);
            const t = Math.floor(s.ts / 1000);
            if (s.equity !== null) equitySeries.update({ time: t, value: Number(s.equity) });
            if (s.mids[state.symbol]) priceSeries.update({ time: t, value: Number(s.mids[state.symbol]) });
          }
        }
      }
    } catch {
      // The run stopped or the connection dropped: say so and try again shortly.
    }
    $('live').className = 'live off';
    await new Promise((r) => setTimeout(r, 2000));
  }
}

function open() {
  $('login').hidden = true;
  $('main').hidden = false;
  if (!equityChart) makeCharts();
  refresh()
    .then(() => stream())
    .catch((e) => notice(`cannot read the API: ${e.message}`));
}

$('symbol').addEventListener('change', (e) => {
  state.symbol = e.target.value;
  void refresh();
});
$('login').addEventListener('submit', (e) => {
  e.preventDefault();
  state.token = $('token').value;
  sessionStorage.setItem('perpetua-token', state.token);
  notice('');
  open();
});

state.token = takeToken();
if (state.token) open();
else showLogin('');
