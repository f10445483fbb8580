// @ts-check
// The storm lab's controller: it owns the flow. A link or a preset or the form
// gives a scenario; the controller guards it (a number no JS number holds, no
// strategy, a cost over what a link may start by itself), has the worker run it
// (model.mjs), and draws its progress and results through the views, writing its
// link once the core has accepted it. The views build and draw; the core (in the
// worker) checks every option, bounds every cost and decides every outcome; this
// module connects them and holds the page's state: what it took from the core
// (the strategy lists, the storm's fields, the contention grid), the request on
// show, a contention link waiting for Run, the fragment last written, and the
// Same axes choice.
import {
  AUTO_RUN_MAX_ATTEMPTS, AUTO_RUN_MAX_CONTENTION_CALLS, CONTENTION_DEFAULTS, DEFAULT_SCENARIO, PRESETS,
  contentionGuard, coreLists, formatContentionLink, formatStormLink, inexactIntegerMessage, isInexactInteger,
  isStormLink, parseStormLink, stormRuns, totalStormCost,
} from './storm-presets.mjs';
import { fmtInt, fmtMs, fmtRate } from './format.mjs';

const presetNote = (key) => PRESETS.find((p) => p.key === key)?.note ?? null;

/**
 * What a storm link's runs will cost, in words, against the bound a link may start by itself.
 * `blank`: the labels of the fields the core requires that the link leaves blank.
 */
function describeCost(cost, blank) {
  const runs = cost.runs === 1 ? 'one run' : `${cost.runs} runs`;
  if (cost.attempts === null) {
    return `${runs}, with ${blank.map((label) => label.toLowerCase()).join(' and ')} blank: its cost has no bound, so it does not start by itself`;
  }
  const time = cost.horizonMs === null ? '' : ` within ${fmtMs(cost.horizonMs)} of simulated time`;
  return `${runs}: up to ${fmtInt(cost.attempts)} attempts${time}, more than a link starts by itself (${fmtInt(AUTO_RUN_MAX_ATTEMPTS)} attempts)`;
}

export class StormController {
  #form;
  #run;
  #results;
  #worker;
  // The request on show: { id, kind: 'storm' | 'contention', history, note, accepted, … }, or null.
  #current = null;
  // A contention link that waited for Run (its cost is over the bound): Run starts it,
  // until the form is edited (then Run runs the form's storm).
  #waitingContention = null;
  #shownHash = null;  // the fragment this page last wrote or read
  #sameAxes = true;
  // What the page takes from the core (the worker's describe answer), once it has loaded:
  // { jitters, backoffKinds, contentionStrategies, stormRows, grid: { clients, strategies, jittered } }.
  #core = null;
  // Bumped by every new action: a link's cost that comes back after it is not acted on.
  #action = 0;

  /** `form`, `run`, `results`: the views (form-view.mjs, run-view.mjs, results-view.mjs); `worker`: model.mjs. */
  constructor({ form, run, results, worker }) {
    this.#form = form;
    this.#run = run;
    this.#results = results;
    this.#worker = worker;
    form.bindRun(() => this.#onRun());
    // Editing the form after a contention link: Run now runs the form's storm.
    form.bindEdit(() => { this.#waitingContention = null; });
    form.bindPreset((key) => this.#onPreset(key));
    run.bindCancel(() => this.#cancel());
    results.bindSameAxes((same) => {
      this.#sameAxes = same;
      results.renderSameAxes(same);
    });
    worker.bindMessage((message) => this.#onMessage(message));
    worker.bindFailure((message) => this.#fail(message));
    window.addEventListener('hashchange', () => this.#loadFromHash());
    window.addEventListener('popstate', () => this.#loadFromHash());
  }

  /**
   * Draws the page, starts the worker (it loads the core now, so the first Run starts at
   * once), takes the lists it needs from the core and loads the link. Resolves once the
   * link is decided (running, or waiting for Run).
   */
  async start() {
    this.#form.renderPresets(PRESETS);
    this.#run.renderState('idle');
    this.#form.fill(DEFAULT_SCENARIO);
    const described = await this.#ask(() => this.#worker.describe());
    if (described === null) return;  // the worker failed, and #fail said so
    this.#form.renderFields(described.schema);
    const lists = coreLists(described.schema);
    this.#core = {
      ...lists,
      stormRows: described.schema.storm,
      grid: {
        clients: described.contentionClients,
        strategies: lists.contentionStrategies,
        // The jittered ones: a contention strategy that is also one of the queue's jitters.
        jittered: lists.contentionStrategies.filter((k) => k !== 'none' && lists.jitters.includes(k)),
      },
    };
    await this.#loadFromHash({ first: true });
  }

  // ---- what the reader did ------------------------------------------------------

  #onRun() {
    if (!this.#core) return;  // the core is still loading (the page is not ready yet)
    if (this.#waitingContention) {
      this.#runContention(this.#waitingContention, { history: 'replace', note: presetNote('contention') });
      return;
    }
    // A number typed past ±(2^53 - 1) is refused as typed, before Number() rounds it
    // (9007199254740993 would be read, and quoted, as 9007199254740992).
    for (const { key, path, text } of this.#form.numberTexts()) {
      if (isInexactInteger(text)) {
        this.#form.renderError(inexactIntegerMessage(path, text), { field: key, focus: true });
        this.#run.renderState('refused');
        this.#run.renderStatus('Not run: a number is out of range.');
        return;
      }
    }
    this.#runScenario(this.#form.read(), { history: 'replace', focus: true });
  }

  #onPreset(key) {
    if (!this.#core) return;  // the core is still loading (the page is not ready yet)
    const preset = PRESETS.find((p) => p.key === key);
    if (!preset) return;
    if (preset.contention) {
      this.#runContention({ ...CONTENTION_DEFAULTS }, { history: 'push', note: preset.note ?? null });
    } else {
      this.#form.fill(preset.scenario);
      this.#runScenario(preset.scenario, { history: 'push', note: preset.note ?? null });
    }
    this.#run.reveal();
  }

  #cancel() {
    const current = this.#current;
    if (!current) return;
    const done = current.kind === 'storm' ? current.finished : 0;
    const total = current.kind === 'storm' ? current.runs.length : 0;
    const percent = this.#run.percent;
    this.#worker.stop();
    this.#current = null;
    this.#run.renderState('cancelled');
    if (done > 0) this.#results.renderStormCharts();
    this.#worker.start();  // a fresh worker loads the core now, ready for the next run
    this.#run.renderStatus(`Cancelled at ${percent}%: the run was stopped${total ? ` (${done} of ${total} storms had finished${done ? '; they are shown' : ''})` : ''}.`);
  }

  // ---- running --------------------------------------------------------------------

  /**
   * Runs a storm scenario. `history`: how its link is written once the core accepts it
   * ('push' for a preset, 'replace' otherwise, 'none' to leave the address alone).
   */
  #runScenario(scenario, { history = 'replace', focus = false, note = null } = {}) {
    this.#stop();
    this.#form.clearError();
    const runs = stormRuns(scenario, this.#core.jitters);
    if (runs.length === 0) {
      this.#form.renderError('choose at least one strategy to run', { field: 'strategies', focus });
      this.#run.renderState('refused');
      this.#run.renderStatus('Not run: no strategy is chosen.');
      return;
    }
    this.#waitingContention = null;
    this.#run.renderProgress(0);
    this.#run.renderState('running');
    this.#run.renderStatus(`Starting ${runs.length === 1 ? 'one storm' : `${runs.length} storms`} of ${fmtInt(scenario.jobs ?? 0)} jobs…`);
    const id = this.#worker.runStorms(runs);
    this.#current = { id, kind: 'storm', scenario, runs, finished: 0, history, focus, note, accepted: false, index: -1 };
  }

  #runContention(contention, { history = 'replace', note = null } = {}) {
    this.#stop();
    this.#form.clearError();
    note = note?.replace('{runs}', String(contention.runs)).replace('{seed}', String(contention.seed)) ?? null;
    this.#waitingContention = null;
    this.#run.renderProgress(0);
    this.#run.renderState('running');
    const { grid } = this.#core;
    this.#run.renderStatus(`Running the contention experiment: ${grid.clients.length} client counts × ${grid.strategies.length} strategies…`);
    const id = this.#worker.runContention(contention, grid);
    this.#current = { id, kind: 'contention', contention, rows: [], history, note, accepted: false };
  }

  /**
   * Stops the run on show, if any (its worker is terminated: nothing of it arrives later);
   * a link's cost still on its way is not acted on.
   */
  #stop() {
    this.#action += 1;
    if (this.#current) this.#worker.stop();
    this.#current = null;
  }

  #fail(message) {
    this.#worker.stop();
    this.#current = null;
    this.#run.renderState('error');
    this.#run.renderStatus(`The run stopped: ${message}`);
  }

  /** The core accepted the request: its link goes into the address bar, and its results begin. */
  #accept() {
    const current = this.#current;
    if (current.accepted) return;
    current.accepted = true;
    const storm = current.kind === 'storm';
    this.#writeHash(storm ? formatStormLink(current.scenario) : formatContentionLink(current.contention), current.history);
    if (storm) this.#results.renderStormStart(current.scenario, { note: current.note, sameAxes: this.#sameAxes });
    else this.#results.renderContentionStart(current.note);
  }

  #onMessage(message) {
    const current = this.#current;
    if (!current || message.id !== current.id) return;  // a stopped request's last words
    switch (message.type) {
      case 'refused': {
        const run = current.kind === 'storm' ? current.runs.find((r) => r.key === message.key) : null;
        this.#current = null;
        this.#run.renderState('refused');
        if (current.kind === 'storm') this.#form.renderError(message.message, { focus: current.focus });
        else this.#form.renderError(`The contention experiment: ${message.message}`, { field: null });
        this.#run.renderStatus(`Not run: the core refused the scenario${run && current.runs.length > 1 ? ` for ${run.label}` : ''}, so nothing ran.`);
        break;
      }
      case 'progress': {
        this.#accept();
        if (current.kind === 'storm') {
          const run = current.runs[message.index];
          const bound = message.bound;
          const most = bound === null || bound === undefined ? '' : ` of at most ${fmtInt(bound)}`;
          this.#run.renderProgress(message.fraction, `${run.label}: ${fmtInt(message.attempts)} attempts${most}`);
        } else {
          const { grid } = this.#core;
          this.#run.renderProgress(message.fraction, `${current.rows.length} of ${grid.clients.length * grid.strategies.length} points`);
        }
        if (current.kind === 'storm' && message.index !== current.index && message.fraction < 1) {
          current.index = message.index;
          const run = current.runs[message.index];
          this.#run.renderStatus(`Running ${run.label}${current.runs.length > 1 ? ` (${message.index + 1} of ${current.runs.length})` : ''}…`);
        }
        break;
      }
      case 'result': {
        this.#accept();
        current.finished += 1;
        const run = current.runs[message.index];
        this.#results.renderStormResult({ run, summary: message.summary, series: message.series, elapsedMs: message.elapsedMs });
        break;
      }
      case 'contention-row': {
        this.#accept();
        current.rows.push(message);
        break;
      }
      case 'done': {
        this.#current = null;
        this.#run.renderState('done');
        this.#run.renderProgress(1);
        const seconds = fmtRate(message.elapsedMs / 1000);
        if (current.kind === 'storm') {
          this.#results.renderStormCharts();
          this.#run.renderStatus(`Done: ${current.runs.length === 1 ? 'one storm' : `${current.runs.length} storms`} of ${fmtInt(current.scenario.jobs)} jobs in ${seconds} s.`);
        } else {
          this.#results.renderContention(current.rows, current.note, this.#core.grid);
          this.#run.renderStatus(`Done: the contention experiment in ${seconds} s.`);
        }
        break;
      }
      case 'error':
        this.#fail(message.message);
        break;
      default:
    }
  }

  // ---- the link -------------------------------------------------------------------

  /** Writes link text into the address bar: 'push' a history entry, 'replace' this one, or 'none' (only shown). */
  #writeHash(text, mode) {
    const hash = `#${text}`;
    this.#shownHash = hash;
    this.#run.renderLink(hash);
    if (mode === 'none' || location.hash === hash) return;
    if (mode === 'push') history.pushState(null, '', hash);
    else history.replaceState(history.state, '', hash);
  }

  /**
   * Reads location.hash: loads its scenario into the form, asks the core (in the worker)
   * what it will cost, and runs it when that is small enough. Resolves once decided.
   */
  async #loadFromHash({ first = false } = {}) {
    if (!this.#core) return;  // start() loads the link once the core has answered
    const hash = location.hash;
    if (hash === this.#shownHash) return;
    this.#shownHash = hash;
    const text = hash.slice(1);
    if (!isStormLink(text)) {
      if (first) {
        // A first visit: the first preset, so the page has something to show.
        const preset = PRESETS[0];
        this.#form.fill(preset.scenario);
        this.#runScenario(preset.scenario, { history: 'replace', note: preset.note ?? null });
      }
      return;
    }
    let link;
    try {
      link = parseStormLink(text);
    } catch (error) {
      this.#waitingContention = null;
      this.#stop();
      this.#results.renderEmpty();
      this.#form.fill(DEFAULT_SCENARIO);
      this.#run.renderState('refused');
      this.#run.renderStatus(`This link could not be read (${error.message}); the form shows the defaults. Press Run to run them.`);
      return;
    }
    // The link replaces what runs; its cost is asked of a worker that is free to answer.
    this.#stop();
    const action = this.#action;
    if (link.kind === 'contention') {
      const answer = await this.#ask(() => this.#worker.contentionCost(link.contention));
      if (answer === null || action !== this.#action) return;  // the reader moved on
      const cost = contentionGuard(answer);
      if (cost.autoRun) {
        this.#runContention(link.contention, { history: 'replace', note: presetNote('contention') });
        return;
      }
      this.#waitForRun(hash);
      this.#waitingContention = link.contention;
      this.#run.renderStatus(`This link is the contention experiment with ${fmtInt(cost.runs)} runs a point: about ${fmtInt(cost.calls)} calls, `
        + `more than a link starts by itself (${fmtInt(AUTO_RUN_MAX_CONTENTION_CALLS)}). Press Run to start it.`);
      return;
    }
    this.#form.fill(link.scenario);
    const preset = PRESETS.find((p) => p.scenario && formatStormLink(p.scenario) === formatStormLink(link.scenario));
    const runs = stormRuns(link.scenario, this.#core.jitters);
    const costs = runs.length === 0 ? [] : await this.#ask(() => this.#worker.stormCosts(runs));
    if (costs === null || action !== this.#action) return;  // the reader moved on
    const cost = totalStormCost(costs);
    // A field the core requires left blank: no bound, so the link waits. Any other
    // refusal costs nothing: it runs, and the core's refusal is shown by name.
    const blank = this.#core.stormRows.filter((row) => row.required && !row.name.includes('.') && link.scenario[row.name] === null)
      .map((row) => row.label);
    const refused = costs.some((c) => c.refused !== undefined);
    if (cost.autoRun || runs.length === 0 || (refused && blank.length === 0)) {
      // (No strategy chosen: nothing can run, and #runScenario says so by name.)
      this.#runScenario(link.scenario, { history: 'replace', note: preset?.note ?? null });
      return;
    }
    this.#waitForRun(hash);
    this.#run.renderStatus(`This link is a storm of ${link.scenario.jobs === null ? '?' : fmtInt(link.scenario.jobs)} jobs in ${describeCost(cost, blank)}. Press Run to start it.`);
  }

  /** A question to the worker; null when it was stopped first, and a failure of the worker shown. */
  async #ask(question) {
    try {
      return await question();
    } catch (error) {
      this.#fail(error.message);
      return null;
    }
  }

  /** A link that does not start by itself: the form holds it, nothing runs, Run starts it. */
  #waitForRun(hash) {
    this.#waitingContention = null;
    this.#stop();
    this.#results.renderEmpty();
    this.#run.renderState('idle');
    this.#run.renderProgress(0);
    this.#run.renderLink(hash);
  }
}
