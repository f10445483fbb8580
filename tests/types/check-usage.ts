// Type-checked (tsc --noEmit) against wasm/check.d.ts through the package's "exports"
// ("dlq-lab/check"); never run. The @ts-expect-error lines must stay errors.
import { loadChecker, type Checker, type CheckResult, type CheckFinding } from 'dlq-lab/check';

async function main(): Promise<void> {
  const checker: Checker = await loadChecker();
  const reads: string = checker.reads;
  const result: CheckResult = checker.check([{ name: 'plan.json', text: '{}' }, { name: 'infra/a.yml', text: '', inFolder: true }],
    { format: 'sarif', config: 'goals: {}', linkBase: 'https://example.org/playground.html', failOn: 'warning' });
  if (result.failure !== undefined) {
    const code: 2 = result.exitCode;
    void code;
  } else {
    const first: CheckFinding | undefined = result.report.findings[0];
    const line: number | undefined = first?.line;
    const worst: number | null | undefined = result.report.queues[0]?.worstCaseMs;
    void line; void worst; void result.output.length;
  }
  // @ts-expect-error a file needs its text
  checker.check([{ name: 'plan.json' }]);
  // @ts-expect-error failOn is 'warning' or 'error'
  checker.check([], { failOn: 'note' });
  void reads;
}
void main;
