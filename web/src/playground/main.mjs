// @ts-check
// Entry point of the playground page and the embedding example: registers
// <dlq-playground>, loads mount() with it (its playgrounds draw at once), and
// marks the page interactive when they are drawn (interactive.mjs). Lesson pages
// use lesson.mjs instead, which loads mount() only when a playground mounts.
import { defineElement } from './element.mjs';
import { markInteractive } from './interactive.mjs';
import { mount } from './playground.mjs';
import '../shared/skip-link.mjs';

export { mount };

defineElement(async () => mount);
markInteractive();
