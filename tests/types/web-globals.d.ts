// What the site's own element and events are to the DOM's types, for tsconfig.web.json: a
// querySelector('dlq-playground') is the element element.mjs defines, and a listener for one of
// the lessons' events gets its CustomEvent. Types only: web/src's modules stay the source.
import type { DlqPlaygroundElement } from '../../web/src/playground/element.mjs';

declare global {
  interface HTMLElementTagNameMap {
    'dlq-playground': DlqPlaygroundElement;
  }
  interface DocumentEventMap {
    /** lesson-map.mjs: a lesson's progress was reset. */
    'dlq-progress-reset': CustomEvent<{ page: string }>;
    /** predict.mjs (bubbles): a question was shown or answered. */
    'dlq-predict': CustomEvent<{ for: string | null, answered: boolean, right?: boolean }>;
  }
}
