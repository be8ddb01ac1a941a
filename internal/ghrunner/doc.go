// Package ghrunner runs the repository's GitHub Actions workflows on
// this machine, for tests: their run: steps with bash as GitHub's Linux
// runners run them, each uses: action stood in for by a small function
// that does what the action does to the job, in the order GitHub would
// run the jobs.
//
// No well-kept runner serves here: nektos/act runs every job in a Docker
// container, and the machines this project runs on have the Docker
// client but no engine (nor a registry to pull act's images from); act
// also predates concurrency's queue key.
//
// What it reads: the workflow files as rhysd/actionlint parses them
// (actionlint.Parse: jobs, needs, if, steps, env, with, outputs,
// environment, concurrency, permissions, strategy.matrix, reusable
// workflows' on.workflow_call inputs and outputs), the one key
// actionlint v1.7.12 does not know (concurrency's queue) from the YAML,
// and ${{ }} expressions with actionlint's lexer and parser, evaluated
// by act's interpreter (github.com/nektos/act pkg/exprparser v0.2.81:
// contexts, property and index access, .* filters, comparisons with
// GitHub's coercions, ! && ||, contains startsWith endsWith format join
// toJSON fromJSON), with what act cannot know given by the runner
// (expr.go): success() failure() cancelled() always() from the run's
// state, an if: that calls none being success() && (if), and hashFiles
// as the Actions runner computes it (hashfiles.go).
//
// What it models, as GitHub documents it:
//   - a run per Trigger (an Event: push, pull_request, schedule,
//     workflow_dispatch at a commit of the Origin, the runner's own git
//     repository); its jobs in dependency order, one at a time, each in a
//     new directory (workspace, RUNNER_TEMP, Beside directories);
//   - a job's if: with needs' results and outputs; a skipped or failed
//     need skips a job whose if: calls no status function; failure()
//     sees every ancestor; cancelled() sees the run only (a need
//     cancelled by its concurrency group is not the run's cancellation);
//   - reusable workflows of the repository (uses: ./.github/workflows/x.yml)
//     with their inputs (typed, defaults) and outputs; a called job's
//     token permissions no more than its caller's;
//   - matrices of plain rows, fail-fast;
//   - concurrency groups of jobs and runs: one holds the group; one
//     arriving while it is held is pending, and by default cancels the
//     one already pending; with queue: max up to 100 wait, in order;
//     cancel-in-progress cancels the holder;
//   - environments: a job in one meets its protection rules
//     (Protections, the program's): it waits for one of the required
//     reviewers (Review), never the run's actor where self-review is
//     prevented, and fails when rejected; an environment without
//     reviewers deploys at once (Approvals records both); its OIDC
//     subject names it;
//   - run: steps: the script with its ${{ }} replaced, in a file run by
//     bash -e {0} (no shell:), bash --noprofile --norc -eo pipefail {0}
//     (shell: bash) or sh -e {0}; env: of the workflow, job and step;
//     $GITHUB_OUTPUT, $GITHUB_ENV, $GITHUB_PATH, $GITHUB_STEP_SUMMARY;
//     GitHub's default variables; working-directory; continue-on-error;
//     ::error:: and ::notice:: annotations kept;
//   - re-runs of failed jobs (RerunFailed): a new attempt (run_attempt)
//     runs the failed and cancelled jobs and every job needing them;
//     the others keep their results and outputs, the run its artifacts;
//   - timeout-minutes: a step's kills its process and fails the step, a
//     job's (default 360) cancels the job at the step it reaches it in.
//
// What it does not: run jobs at the same time (one order GitHub could
// have chosen), runner labels (every job runs here), services
// and containers, secrets masking, workflow-level env in expressions
// beyond env:, events' filters (the test chooses the workflow).
//
// The actions' stand-ins are in actions.go, github.go and pulumi.go;
// each one's doc comment says what it does not do.
package ghrunner
