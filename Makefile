# The two commands a fresh machine needs (see README):
#   make demo   the main job: the offline demo of the three stacks
#   make test   every test layer, engine tests through the real Pulumi CLI
GO ?= go

.PHONY: bench-merge demo test test-fast test-engine check cli policy bench bench-engine bench-pr golden bindings clean-state

# cli builds the pinned Pulumi CLI once and caches it outside the clone.
cli:
	@scripts/install-pulumi.sh >/dev/null

# policy builds the CrossGuard policy pack once per change of its sources
# and caches it beside the CLI (platformctl policy-pack prints the path).
policy:
	@$(GO) run ./cmd/platformctl policy-pack >/dev/null

demo: cli policy
	$(GO) run ./cmd/platformctl demo

# check: formatting and vet, before the tests; tools/netpolmatch is a
# module of its own (package connectivity says why).
check:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	cd tools/netpolmatch && $(GO) vet ./...

# test is every layer, the fast ones first: test-fast (unit, mocks,
# conformance, goldens, workflows: about a minute) answers a broken unit
# test before test-engine (the engine tests through the real CLI) starts.
# The pull-request workflow runs the two as its test jobs.
test: test-fast test-engine

# It needs the CLI too: internal/platformctl's TestDirLocatesShared starts the
# engine (on a fresh machine the CLI was built only after it had failed).
test-fast: check cli
	$(GO) test -count=1 -timeout 15m $$($(GO) list ./... | grep -v '/engine$$')

# test-engine runs twelve engine tests at once: each spends part of its
# time waiting on its CLI and plugins, and with fewer the longest ones
# (the seven kill points hold seven slots) start minutes late (2 cores,
# 2026-11-28: 495 s at -parallel 12; docs/contributing.md).
test-engine: cli policy
	$(GO) test -count=1 -timeout 45m -parallel 12 ./engine

bench:
	$(GO) test -run '^$$' -bench . -benchtime 1x -benchmem ./catalog ./program

# bench-engine: up --stack dev through the real CLI offline at 100, 300 and
# 1,000 services (about 15 minutes on 2 cores).
bench-engine: cli
	$(GO) test -run '^$$' -bench BenchmarkUp -benchtime 1x -timeout 90m ./engine

# bench-merge (issue 61), at 100, 300 and 1,000 services: the up of dev
# that applies a one-service merge (up --changed: the platform stack and
# the service's stack), then dev's drift check and a full re-apply of
# dev, dev deployed first outside the timer (BenchmarkOneServiceMerge);
# and the merge through up.yml from its trigger to production's up done,
# the chain deployed first outside the timer (BenchmarkMergeToProduction).
bench-merge: cli policy
	$(GO) test -run '^$$' -bench 'BenchmarkOneServiceMerge|BenchmarkMergeToProduction' -benchtime 1x -timeout 180m ./engine

# bench-pr: a pull request's checks at 1,000 services (issue 47): the chain
# deployed offline outside the timer, then .github/workflows/preview.yml
# through internal/ghrunner on a one-service change (BenchmarkPullRequestChecks;
# its services=100 runs in a few minutes). Not part of test or bench.
bench-pr: cli policy
	$(GO) test -run '^$$' -bench 'BenchmarkPullRequestChecks/services=1000$$' -benchtime 1x -timeout 180m ./engine

# golden: regenerate the reviewed golden files, catalog schemas and the
# Backstage templates (generated from the catalog).
golden:
	$(GO) test ./plan -update
	$(GO) test ./catalog -run TestJSONSchemas -update
	$(GO) test ./backstage -run TestTemplatesAreGenerated -update

# bindings: regenerate harness/sdk, the Harness provider's Go bindings, with
# Pulumi's own Go code generator over ../shared/harness-provider, for the
# resources harness/bindings.txt lists (harness/sdk's test fails when stale).
bindings:
	$(GO) -C tools/harnessgen run . -root ../..

clean-state:
	rm -rf .state
