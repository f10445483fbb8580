// A playground's view, faked for the Node suites (as compare.test.mjs fakes the
// compare page's): it records what the controllers drew and lets a test do what a
// reader does (press(name, …args) calls the handler the controller bound). It has
// exactly the surface view.mjs offers the controllers: reading any other member
// throws, so a controller that reaches past it fails here. Also a page's timers
// and window (location, history, hashchange), driven by hand: no test waits.
import { lab } from './helpers.mjs';
import { Controller, ALL_PRESETS } from '../../web/src/playground/controller.mjs';
import { embedOptions } from '../../web/src/playground/embed-options.mjs';

/** The default scenario's link (the a/b example). */
export const AB = 'v1;m3;ja:charge%20order%201,b:charge%20order%202;at:db%20timeout,s,s;c0';

/** A view object whose unknown members throw (the contract is the members it has). */
function strict(object, name) {
  return new Proxy(object, {
    get(target, key) {
      if (typeof key === 'symbol' || key in target || key === 'then') return target[key];
      throw new Error(`${name} has no member "${String(key)}": the controllers reach past the view's surface`);
    },
  });
}

class FakeShare {
  url = null;
  none = null;
  copied = [];
  bindCopy(handler) { this.onCopy = handler; }
  render(url) { this.url = url; this.none = null; }
  renderNone(message) { this.url = null; this.none = message; }
  async copyLink(url) { this.copied.push(url); }
}

class FakeSnippet {
  open = false;
  edited = false;
  systems = null;
  shown = null;
  outcome = null;  // { applied | refused: heading, list }
  loadingShown = false;
  bindOpen(handler) { this.onOpen = handler; }
  bindSystem(handler) { this.onSystem = handler; }
  bindApply(handler) { this.onApply = handler; }
  loading(on) { this.loadingShown = on; }
  setSystems(systems) { this.systems = systems; }
  show(snippet) { this.shown = snippet; }
  applied(heading, set) { this.outcome = { applied: heading, set }; }
  refused(heading, messages) { this.outcome = { refused: heading, messages }; }
}

class FakeSchedule {
  shown = false;
  table = null;
  error = null;
  bindOutage(handler) { this.onOutage = handler; }
  outageMs(suggested) { return suggested; }
  show(visible) { this.shown = visible; }
  render(table) { this.table = table; this.error = null; }
  renderError(message) { this.error = message; }
}

class FakeDialog {
  opened = 0;
  outcome = null;
  calls = [];
  alert = { name: 'crash dialog alert' };
  show(arg) { this.opened += 1; this.shownWith = arg; }
  refused(heading, messages) { this.outcome = { refused: heading, messages }; }
  accepted(heading, set, ignored) { this.outcome = { accepted: heading, set, ignored }; }
  findFirst() { this.calls.push(['findFirst']); }
  crashAt(after) { this.calls.push(['crashAt', after]); }
}

export class FakeView {
  root = { name: 'root' };
  handlers = new Map();
  renders = [];       // [{ view, notice, caption, … }] every draw
  changes = [];       // the 'dlq-change' details
  alerts = new Map(); // where → message (null: cleared)
  refusals = [];      // [what, message] in the action alert
  said = [];          // the line beside Run
  runningKind = null;
  stepErrorText = null;
  maxErrorText = null;
  jobErrorText = null;
  linkAlert = null;   // { message, text } or null
  report = null;
  isReady = false;
  mountedIn = null;
  destroyed = false;
  clockPlayground = false;
  nextEventOffered = false;
  helpShown = false;
  // What the reader chose or typed.
  outcome = 'success';
  error = '';
  token = '';
  speed = 10;
  maxAttempts = { text: '3', value: 3 };
  job = { id: '', payload: '', key: null, behaviour: 'healthy', detail: '' };
  share = strict(new FakeShare(), 'share');
  snippet = strict(new FakeSnippet(), 'snippet');
  schedule = strict(new FakeSchedule(), 'schedule');
  importView = strict(new FakeDialog(), 'import dialog');
  crashView = strict(new FakeDialog(), 'crash dialog');
  snapshotView = strict(new FakeDialog(), 'snapshot dialog');
  loads = [];         // the parts load(part) was asked for, in order
  failLoad = null;    // an Error: load() rejects with it (a chunk that did not load)

  constructor() {
    // Every bindX(handler) the controllers may call records the handler under X.
    for (const name of ['Step', 'Back', 'Forward', 'NextEvent', 'Reset', 'Restore', 'Run', 'Play', 'Speed', 'Undo', 'Scrub',
      'Select', 'Lease', 'Settle', 'CrashWorker', 'Advance', 'Replay', 'ReleaseKey', 'Redrive', 'PatchAndReplay', 'Remove',
      'Report', 'Snapshot', 'CrashOpen', 'Preset', 'MaxAttempts', 'AddJob', 'Policy', 'World', 'AdvancedOpen', 'ImportOpen',
      'Switch', 'UnsafeOrder', 'Crash', 'Find', 'Import', 'Pinned']) {
      this[`bind${name}`] = (handler) => { this.handlers.set(name, handler); };
    }
    return strict(this, 'view');
  }

  /** Does what the reader does: the handler bound for `name`, with `args`. */
  press(name, ...args) {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`nothing is bound to ${name}`);
    return handler(...args);
  }

  /** The last draw. */
  get last() { return this.renders.at(-1); }

  bindCommand(handler, { pageWide }) { this.handlers.set('Command', handler); this.keys = { pageWide }; }
  load(part) {
    this.loads.push(part);
    return this.failLoad === null ? Promise.resolve() : Promise.reject(this.failLoad);
  }
  importDialog() { return this.importView; }
  crashDialog() { return this.crashView; }
  snapshotDialog() { return this.snapshotView; }
  chosenOutcome() { return this.outcome; }
  errorText() { return this.error; }
  chosenToken() { return this.token; }
  offeredOutcomes() { return ['success', 'transient', 'permanent']; }
  stepsPerSecond() { return this.speed; }
  maxAttemptsInput() { return this.maxAttempts; }
  jobInput() { return this.job; }
  focusWithin() { return false; }
  focusLost() { return true; }
  mountIn(element) { this.mountedIn = element; }
  ready() { this.isReady = true; }
  changed(detail) { this.changes.push(detail); }
  linkRefused(message, text) { this.linkAlert = message === null ? null : { message, text }; }
  refused(what, message) { this.refusals.push([what, message]); }
  alert(where, message) { this.alerts.set(where, message); }
  stepError(message) { this.stepErrorText = message; }
  say(text) { this.said.push(text); }
  running(kind) { this.runningKind = kind; }
  chooseOutcome(n) { this.outcome = this.offeredOutcomes()[n - 1] ?? this.outcome; }
  showHelp() { this.helpShown = true; }
  focusStep() {}
  maxError(message, restore) { this.maxErrorText = message; if (restore !== undefined) this.maxAttempts = { text: restore, value: Number(restore) }; }
  jobError(message) { this.jobErrorText = message; }
  clearJob() { this.job = { id: '', payload: '', key: null, behaviour: 'healthy', detail: '' }; }
  focusJobId() {}
  renderReport(refusal, refused) { this.report = { refusal, refused }; }
  showFields(paths) { this.pinned = paths; }
  showFeatures(advanced) { this.clockPlayground = advanced; this.nextEventOffered = advanced; return advanced; }
  withholdForetelling(withheld) { this.withheld = withheld; }
  render(view, drawn) { this.renders.push({ view, ...drawn }); }
  destroy() { this.destroyed = true; }
}

/** setTimeout/setInterval and their clears, run by hand: tick() fires the interval once, flush() the timeouts due. */
export class ManualTimers {
  #next = 1;
  timeouts = new Map();
  intervals = new Map();
  setTimeout(fn) { const id = this.#next++; this.timeouts.set(id, fn); return id; }
  clearTimeout(id) { this.timeouts.delete(id); }
  setInterval(fn, ms) { const id = this.#next++; this.intervals.set(id, { fn, ms }); return id; }
  clearInterval(id) { this.intervals.delete(id); }
  /** Runs every pending timeout (the debounced link write). */
  flush() {
    const due = [...this.timeouts.values()];
    this.timeouts.clear();
    for (const fn of due) fn();
  }
  /** Fires the running interval once; false when none runs. */
  tick() {
    const [entry] = this.intervals.values();
    if (!entry) return false;
    entry.fn();
    return true;
  }
}

/** A window's location, history and hashchange, for sync-url. */
export class FakeWindow {
  listeners = new Map();
  pushes = 0;
  constructor(hash = '') {
    this.location = { hash, pathname: '/playground.html', search: '', href: `https://lab.test/playground.html${hash}` };
    this.history = {
      state: null,
      pushState: (state, title, url) => { this.pushes += 1; this.#go(url); },
      replaceState: (state, title, url) => { this.#go(url); },
    };
  }
  addEventListener(type, fn) { this.listeners.set(type, fn); }
  removeEventListener(type) { this.listeners.delete(type); }
  /** The reader (or another script) puts `hash` in the address bar. */
  navigate(hash) {
    this.#go(hash);
    this.listeners.get('hashchange')?.();
  }
  #go(url) {
    const hash = url.startsWith('#') ? url : '';
    this.location.hash = hash;
    this.location.href = `https://lab.test/playground.html${hash}`;
  }
}

/** A playground over a fake view, manual timers and a fake window; `options` as mount() takes them. */
export function playground(options = {}, { hash = '', embed = {}, snippets } = {}) {
  const view = new FakeView();
  const timers = new ManualTimers();
  const host = new FakeWindow(hash);
  const element = { name: 'dlq-playground' };
  const controller = new Controller(element, lab, { linkBase: 'https://lab.test/playground.html', ...options },
    embedOptions(embed, ALL_PRESETS.map((p) => p.key)), { view, host, timers, snippets });
  return { controller, view, timers, host, element, session: controller.session };
}

/** What a refusal must leave as it was: the link (set-up and script), the cursor, the step. */
export function state(controller) {
  const { view } = controller.session;
  return { link: controller.link(), cursor: view.cursor, step: view.stats.step };
}
