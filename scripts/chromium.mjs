// How the project starts Debian's Chromium (headless) for the browser suites, bench:page and
// Lighthouse: one list of flags, so a measurement and a test see the same engine.
/** The browser people run: bench:page and Lighthouse measure it. */
export const CHROMIUM = '/usr/bin/chromium';
/**
 * The browser suites' Chromium: Debian's chromium-headless-shell, the same version of the same
 * engine (Blink, V8, the same flags) built without the browser's own layer (windows, tabs,
 * profiles, its WebUI), the build Playwright itself runs headless tests on. A page costs it
 * less CPU: the playground's browser file 20.7 s of the machine's CPU against 28.6 s with
 * /usr/bin/chromium, the controls file 95 s against 113 s.
 */
export const CHROMIUM_FOR_TESTS = '/usr/bin/chromium-headless-shell';

/**
 * Off: network and update chatter that is noise in a measurement, the sandbox (root in a
 * container), the GPU (none here), and the omnibox's WebUI popups. Chromium 156's headless
 * browser builds those popups (chrome://omnibox-popup.top-chrome/) for every new window, in a
 * renderer of their own: about 0.7 s of CPU per browser context on this machine, more than
 * the playground page itself, and it competed with the page while it loaded.
 */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup'];

/**
 * The browser suites' flags: CHROMIUM_ARGS, and V8 without its background threads
 * (`--single-threaded`: the same compilers and the same garbage collector, run on the thread
 * that needs them instead of beside it). The suites run more files at a time than there are cores,
 * where V8's helper threads only compete with the other files' browsers. The controls and lessons
 * files side by side, alternated four times each: 144–152 s of the machine's CPU (wall 87–93 s) against
 * 153–162 s (92–96 s) without it. bench:page and Lighthouse keep measuring a browser as people run it.
 */
export const CHROMIUM_TEST_ARGS = [...CHROMIUM_ARGS, '--js-flags=--single-threaded'];
