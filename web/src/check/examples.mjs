// @ts-check
// The Check page's examples: cases of the checker's own corpus (tests/fixtures/check/, each
// folder one project), which scripts/site.mjs copies into the site as examples/check/<path>.
// Each file is handed to the checker under its corpus path, as `dlq-lab check` run in
// tests/fixtures/check/ would name it.
export const EXAMPLES_DIR = 'examples/check';

export const EXAMPLES = Object.freeze([
  { id: 'terraform', label: 'Terraform plan (SQS)', files: ['terraform/inline-redrive/plan.json'] },
  { id: 'cloudformation', label: 'CloudFormation (SQS)', files: ['cloudformation/short-form/template.yaml'] },
  { id: 'rabbitmq', label: 'RabbitMQ 4 definitions', files: ['rabbitmq-4x/definitions.json'] },
  { id: 'operator', label: 'RabbitMQ topology operator', files: ['rabbitmq-operator/topology.yaml'] },
  { id: 'bullmq', label: 'BullMQ job options', files: ['bullmq/emails.json', 'bullmq/reports.queue.json', 'bullmq/webhooks.json'] },
  {
    id: 'sidekiq', label: 'Sidekiq app',
    files: ['sidekiq/app/jobs/billing/charge_job.rb', 'sidekiq/app/jobs/default_job.rb', 'sidekiq/app/jobs/fire_and_forget_job.rb',
      'sidekiq/app/jobs/hard_job.rb', 'sidekiq/config/sidekiq.yml'],
  },
].map((example) => Object.freeze(example)));

/** Every corpus file the examples name (site.mjs copies these). */
export function exampleFiles() {
  return EXAMPLES.flatMap((example) => example.files);
}
