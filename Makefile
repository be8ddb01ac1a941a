# The two commands a fresh machine needs (see README):
#   make demo   the main job
#   make test   every test layer
GO ?= go

.PHONY: demo test check bench golden

demo:
	$(GO) run ./cmd/platformctl validate
	$(GO) run ./cmd/platformctl render --stack production --service payment-service

# check: formatting and vet, before the tests.
check:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...

test: check
	$(GO) test -count=1 ./...

bench:
	$(GO) test -run '^$$' -bench . -benchtime 1x ./catalog ./internal/program

# golden: regenerate the reviewed golden files and catalog schemas.
golden:
	$(GO) test ./internal/render -update
	$(GO) test ./catalog -run TestJSONSchemas -update
