/**
 * Ends a jest run with one plain count line, `Tests: N passed, N failed[, N skipped]`. Jest's own
 * summary ("Tests: N passed, N total") is not a closing line that CI log readers recognise, and
 * jest prints it after every custom reporter, so this line is written as the process exits: it is
 * the last line of the run's output. It goes through fs.writeSync because jest's forced exit
 * (exit-x) turns process.stderr.write into a no-op before exiting.
 */
const { writeSync } = require('node:fs');

class ClosingLineReporter {
  constructor() {
    this.line = undefined;
    process.once('exit', () => {
      if (this.line) writeSync(process.stderr.fd, `${this.line}\n`);
    });
  }

  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const counts = [`${results.numPassedTests} passed`, `${results.numFailedTests} failed`];
    if (skipped > 0) counts.push(`${skipped} skipped`);
    this.line = `Tests: ${counts.join(', ')}`;
  }
}

module.exports = ClosingLineReporter;
