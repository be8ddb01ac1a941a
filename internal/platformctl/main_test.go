package platformctl

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/company/harness-platform/bootstrap/answers"
	"github.com/company/harness-platform/engine"
	"github.com/company/harness-platform/internal/catalogtest"
	"github.com/company/harness-platform/internal/conformance"
	"github.com/company/harness-platform/internal/example"
)

// project writes the example project to a temporary directory, with edits.
func project(t *testing.T, edit func(map[string][]byte)) string {
	files, err := catalogtest.ExampleFiles("../..")
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(files)
	}
	dir := t.TempDir()
	catalogtest.WriteFiles(t, dir, files, 0o644)
	return dir
}

func TestValidate(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Run([]string{"validate", "--dir", project(t, nil)}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	// A stack file importing ESC environments is accepted.
	esc := project(t, func(f map[string][]byte) {
		f["Pulumi.production.yaml"] = append([]byte("environment:\n  - platform/production\n"), f["Pulumi.production.yaml"]...)
	})
	if code := Run([]string{"validate", "--dir", esc}, &out, &errOut); code != 0 {
		t.Fatalf("a stack file with an ESC import: exit %d: %s", code, errOut.String())
	}
	bad := project(t, func(f map[string][]byte) {
		f["catalog/services.yaml"] = bytes.Replace(f["catalog/services.yaml"], []byte("team: checkout"), []byte("team: chekout"), 1)
		f["Pulumi.production.yaml"] = bytes.Replace(f["Pulumi.production.yaml"], []byte("upstream: staging"), []byte("upstream: qa"), 1)
	})
	out.Reset()
	errOut.Reset()
	if code := Run([]string{"validate", "--dir", bad}, &out, &errOut); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	want := "Pulumi.production.yaml:5:30: upstream stack \"qa\" has no stack file; use one of: dev, production, staging, or declare it in Pulumi.qa.yaml\n" +
		"catalog/services.yaml:32:11: unknown team \"chekout\"; did you mean \"checkout\"?\n" +
		"2 problem(s); nothing was declared\n"
	if errOut.String() != want {
		t.Fatalf("stderr:\n%s\nwant:\n%s", errOut.String(), want)
	}
}

func TestRenderProductionIsSchemaValid(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Run([]string{"render", "--stack", "production", "--dir", project(t, nil)}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	docs := strings.Split(out.String(), "---\n")[1:]
	if len(docs) < 20 {
		t.Fatalf("only %d documents", len(docs))
	}
	validated := 0
	for _, doc := range docs {
		// Harness publishes schemas for pipelines and triggers.
		validate := conformance.ValidatePipeline
		switch {
		case strings.Contains(doc, "\ntrigger:\n"):
			validate = conformance.ValidateTrigger
		case !strings.Contains(doc, "\npipeline:\n"):
			continue
		}
		validated++
		if err := validate([]byte(doc)); err != nil {
			head, _, _ := strings.Cut(doc, "\n")
			t.Errorf("%s: %v", head, err)
		}
	}
	if validated < 20 {
		t.Fatalf("validated only %d documents", validated)
	}
	errOut.Reset()
	if code := Run([]string{"render", "--stack", "production", "--service", "promo-importer", "--dir", project(t, nil)}, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), `service "promo-importer" is not enabled in stack "production"`) {
		t.Fatalf("render of a service not in the stack: exit %d, %s", code, errOut.String())
	}
}

// The command line: each command its own flags, help anywhere and before
// any catalog is loaded, exit 2 for anything the command does not take.
func TestCommandLine(t *testing.T) {
	dir := project(t, nil)
	for _, tc := range []struct {
		args     []string
		code     int
		stdout   string
		stderr   string
		noStdout bool
	}{
		{args: []string{"render", "--stack", "production", "extra", "--service", "payment-service", "--dir", dir}, code: 2, stderr: `unexpected argument "extra"`, noStdout: true},
		{args: []string{"validate", "--dir", dir, "stray"}, code: 2, stderr: `unexpected argument "stray"`},
		{args: []string{"validate", "--bogus"}, code: 2, stderr: "platformctl validate: unknown flag: --bogus"},
		{args: []string{"validate", "--service", "x", "--dir", dir}, code: 2, stderr: "platformctl validate: unknown flag: --service"},
		{args: []string{"render", "--dir", dir}, code: 2, stderr: "--stack is required"},
		{args: []string{"up", "--stack", "dev", "--dir", dir}, code: 2, stderr: "then pass --yes"},
		{args: []string{"frobnicate"}, code: 2, stderr: `unknown command "frobnicate"`},
		{args: []string{"render", "--stack", "production", "-h"}, code: 0, stdout: "-service"},
		{args: []string{"up", "--dir", "/nonexistent", "--help"}, code: 0, stdout: "-yes"},
		{args: []string{"-h"}, code: 0, stdout: "recover"},
		{args: []string{"help", "refresh"}, code: 0, stdout: "-preview-only"},
		{args: []string{"recover", "-h"}, code: 0, stdout: "-unlock"},
	} {
		var out, errOut bytes.Buffer
		code := Run(tc.args, &out, &errOut)
		if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
			t.Errorf("platformctl %s: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				strings.Join(tc.args, " "), code, out.String(), errOut.String(), tc.code, tc.stdout, tc.stderr)
		}
		if tc.noStdout && out.Len() > 0 {
			t.Errorf("platformctl %s printed %d bytes although the command line is wrong", strings.Join(tc.args, " "), out.Len())
		}
	}
}

// Pulumi's short flags: -s for --stack, -y for --yes, -j for --json, -p
// for --parallel.
func TestShortFlags(t *testing.T) {
	dir := project(t, nil)
	var long, short, errOut bytes.Buffer
	if code := Run([]string{"render", "--stack", "production", "--dir", dir}, &long, &errOut); code != exitOK {
		t.Fatalf("render --stack: exit %d: %s", code, errOut.String())
	}
	if code := Run([]string{"render", "-s", "production", "--dir", dir}, &short, &errOut); code != exitOK || short.String() != long.String() {
		t.Fatalf("render -s: exit %d, %d bytes (--stack: %d): %s", code, short.Len(), long.Len(), errOut.String())
	}

	// gitops writes the operator's Stacks with -y as with --yes.
	gitops := project(t, func(f map[string][]byte) {
		stacks, _ := filepath.Glob("../../" + gitopsDir + "/*/stack.yaml")
		for _, path := range append(stacks, "../../deploy/argocd/root.yaml") {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel("../..", path)
			f[rel] = data
		}
	})
	for _, step := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"gitops", "--dir", gitops}, exitFail, ""},
		{[]string{"gitops", "-y", "--dir", gitops}, exitOK, "written or removed"},
		{[]string{"gitops", "--dir", gitops}, exitOK, "follow the catalog"},
	} {
		var out, errOut bytes.Buffer
		if code := Run(step.args, &out, &errOut); code != step.code || !strings.Contains(out.String(), step.out) {
			t.Fatalf("platformctl %s: exit %d, %s%s; want exit %d, %q", strings.Join(step.args, " "), code, out.String(), errOut.String(), step.code, step.out)
		}
	}

	// -y passes the consent check of up, -j and -p parse: each goes on
	// to load the catalog (here: none, exit 1), none is a usage error.
	none := filepath.Join(t.TempDir(), "none")
	for _, args := range [][]string{
		{"up", "-s", "dev", "-y", "--dir", none},
		{"destroy", "-s", "dev", "-y", "--dir", none},
		{"refresh", "-s", "dev", "-y", "--dir", none},
		{"outputs", "-s", "dev", "-j", "--dir", none},
		{"preview", "-s", "dev", "-p", "4", "--dir", none},
	} {
		var out, errOut bytes.Buffer
		if code := Run(args, &out, &errOut); code != exitFail || !strings.Contains(errOut.String(), "nothing was declared") {
			t.Errorf("platformctl %s: exit %d, %s; want the catalog load's failure (exit 1)", strings.Join(args, " "), code, errOut.String())
		}
	}
}

// A refresh writes the state: without --yes it is refused, as up and
// destroy are, with the fix, and runs nothing; --preview-only (the drift
// check) writes nothing and needs no --yes.
func TestRefreshNeedsYes(t *testing.T) {
	dir := project(t, nil)
	state := filepath.Join(t.TempDir(), "state")
	var out, errOut bytes.Buffer
	code := Run([]string{"refresh", "--stack", "dev", "--offline", "--state", state, "--dir", dir}, &out, &errOut)
	want := "platformctl refresh: --yes is required to write what the cloud holds into the state of \"dev\": " +
		"run `platformctl refresh --stack dev --preview-only` to see what it would write, then pass --yes\n"
	if code != exitUsage || errOut.String() != want || out.Len() > 0 {
		t.Fatalf("refresh without --yes: exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out.String(), errOut.String(), want)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Fatalf("refresh without --yes made its state %s: %v", state, err)
	}
	// up's refusal reads the same way.
	errOut.Reset()
	if code := Run([]string{"up", "-s", "dev", "--dir", dir}, &out, &errOut); code != exitUsage ||
		!strings.HasPrefix(errOut.String(), "platformctl up: --yes is required to change the stack \"dev\"") {
		t.Fatalf("up without --yes: exit %d, %q", code, errOut.String())
	}
	// The drift check and a refresh with --yes pass the check: they go
	// on to load the catalog (here: none, exit 1).
	none := filepath.Join(t.TempDir(), "none")
	for _, args := range [][]string{
		{"refresh", "--stack", "dev", "--preview-only", "--expect-no-changes", "--dir", none},
		{"refresh", "--stack", "dev", "--yes", "--dir", none},
	} {
		errOut.Reset()
		if code := Run(args, &out, &errOut); code != exitFail || !strings.Contains(errOut.String(), "nothing was declared") {
			t.Errorf("platformctl %s: exit %d, %s; want the catalog load's failure (exit 1)", strings.Join(args, " "), code, errOut.String())
		}
	}
}

// Each command's help lists its own flags only, in Pulumi's spelling.
func TestHelpListsOwnFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Run([]string{"up", "-h"}, &out, &errOut); code != exitOK {
		t.Fatalf("up -h: exit %d: %s", code, errOut.String())
	}
	help := out.String()
	for _, want := range []string{"-s, --stack STACK", "-y, --yes", "-p, --parallel N", "--plan DIR", "--policy-pack PATH", "--policy-pack-config FILE", "--diff", "--expect-no-changes"} {
		if !strings.Contains(help, want) {
			t.Errorf("up -h does not list %q:\n%s", want, help)
		}
	}
	for _, other := range []string{"from", "charts", "plugin", "events", "preview-only", "save-plan", "json", "unlock"} {
		if regexp.MustCompile(`(?m)^ +(-., )?--` + other + `\b`).MatchString(help) {
			t.Errorf("up -h lists --%s, a flag of another command:\n%s", other, help)
		}
	}
	out.Reset()
	if code := Run([]string{"outputs", "--help"}, &out, &errOut); code != exitOK || !strings.Contains(out.String(), "-j, --json") {
		t.Errorf("outputs --help: exit %d, no -j, --json:\n%s", code, out.String())
	}
}

// A flag the command does not take is a usage error (exit 2) naming the
// flag, printed once as `platformctl COMMAND: ...` with the command's
// usage line; a Go-style single-dash long flag (-stack) too.
func TestUnknownFlag(t *testing.T) {
	dir := project(t, nil)
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"up", "--stack", "dev", "--bogus", "--dir", dir}, "platformctl up: unknown flag: --bogus\n"},
		{[]string{"up", "--stack", "dev", "--from", "x", "--dir", dir}, "platformctl up: unknown flag: --from\n"},
		{[]string{"render", "-stack", "production", "--dir", dir}, "platformctl render: -stack: a long flag takes two dashes: --stack\n"},
		{[]string{"render", "--stack=production", "-x", "--dir", dir}, "platformctl render: unknown shorthand flag: 'x' in -x\n"},
	} {
		var out, errOut bytes.Buffer
		code := Run(tc.args, &out, &errOut)
		use := regexp.MustCompile(`(?m)^usage: platformctl ` + tc.args[0] + ` .*\(platformctl ` + tc.args[0] + ` -h: its flags\)\n$`)
		if code != exitUsage || !strings.HasPrefix(errOut.String(), tc.err) || !use.MatchString(errOut.String()) || out.Len() > 0 {
			t.Errorf("platformctl %s: exit %d, stdout %q, stderr %q; want exit 2, %q and the usage line", strings.Join(tc.args, " "), code, out.String(), errOut.String(), tc.err)
		}
		_, msg, _ := strings.Cut(strings.TrimSuffix(tc.err, "\n"), ": ")
		if n := strings.Count(errOut.String(), msg); n != 1 {
			t.Errorf("platformctl %s: the error printed %d times:\n%s", strings.Join(tc.args, " "), n, errOut.String())
		}
	}
}

// --dir finds ../shared beside the project, whatever the working directory.
func TestDirLocatesShared(t *testing.T) {
	if _, err := engine.FindCLI(); err != nil {
		t.Fatalf("%v (make test installs it)", err)
	}
	projectDir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	var out, errOut bytes.Buffer
	code := Run([]string{"preview", "--stack", "staging", "--offline", "--state", t.TempDir(), "--dir", projectDir}, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), `stack "staging" reads its upstream "dev", which has not been deployed`) {
		t.Fatalf("want the engine to start (and refuse the undeployed upstream), got exit %d: %s", code, errOut.String())
	}
}

// recover --unlock says what it unlocked before it says what is left to
// recover: a killed run's lock, removed silently, read as "nothing to
// recover".
func TestRecoverSaysItUnlocked(t *testing.T) {
	dir, err := filepath.Abs("../..") // the project, with ../shared beside it
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "state")
	var out, errOut bytes.Buffer
	if code := Run([]string{"up", "--stack", "dev", "--offline", "--state", state, "--dir", dir, "--yes"}, &out, &errOut); code != 0 {
		t.Fatalf("up: exit %d: %s", code, errOut.String())
	}
	out.Reset()
	errOut.Reset()
	// Without --yes it writes nothing and says how to do it.
	if code := Run([]string{"recover", "--stack", "dev", "--offline", "--state", state, "--dir", dir, "--unlock"}, &out, &errOut); code != 0 {
		t.Fatalf("recover: exit %d: %s", code, errOut.String())
	}
	if text := out.String(); strings.Contains(text, "unlocked") || !strings.Contains(text, "dev has no pending operations: nothing to recover") ||
		!strings.Contains(text, "--unlock --yes") {
		t.Errorf("recover --unlock without --yes said:\n%s", text)
	}
	out.Reset()
	if code := Run([]string{"recover", "--stack", "dev", "--offline", "--state", state, "--dir", dir, "--unlock", "--yes"}, &out, &errOut); code != 0 {
		t.Fatalf("recover: exit %d: %s", code, errOut.String())
	}
	text := out.String()
	i, j := strings.Index(text, "unlocked credentials.dev, dev, dev.services: any update in progress there was cancelled"), strings.Index(text, "dev has no pending operations: nothing else to recover")
	if i < 0 || j < i {
		t.Errorf("recover --unlock said:\n%s", text)
	}
}

// bootstrap prints the checklist, each step with its owner and check;
// --check --offline passes against the simulated services, and from an
// address outside the runners' networks fails (exit 1) naming the
// runners' step and its owner, in words, not a Go value.
func TestBootstrap(t *testing.T) {
	if _, err := engine.FindCLI(); err != nil {
		t.Fatalf("%v (make test installs it)", err)
	}
	var out, errOut bytes.Buffer
	if code := Run([]string{"bootstrap", "--dir", "../.."}, &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), example.L(t, "1. Pulumi organisation company (Pulumi Cloud admin)")) || !strings.Contains(out.String(), "8. First run (platform team)") {
		t.Fatalf("bootstrap: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	out.Reset()
	errOut.Reset()
	if code := Run([]string{"bootstrap", "--check", "--offline", "--state", t.TempDir(), "--dir", "../.."}, &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), "every checked step is done") {
		t.Fatalf("bootstrap --check --offline: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	out.Reset()
	errOut.Reset()
	code := Run([]string{"bootstrap", "--check", "--offline", "--state", t.TempDir(), "--dir", "../..", "--runner-address", "192.0.2.10"}, &out, &errOut)
	if want := "1 step(s) not done: Runners (platform team); 0 other problem(s)"; code != 1 || !strings.Contains(errOut.String(), want) ||
		!strings.Contains(out.String(), "✗ 6. Runners (platform team)") || strings.Contains(errOut.String(), "[") {
		t.Errorf("bootstrap --check from outside: exit %d, want 1 and %q\n%s%s", code, want, out.String(), errOut.String())
	}
}

// bootstrap --print-answers prints the answers the files are written
// with (bootstrap/answers.yaml); --answers with another organisation's
// lists the changes and writes nothing, with --yes writes them (the
// files renamed for the new ids) and the checklist of the files as they
// are now, and run again changes nothing.
func TestBootstrapWritesTheAnswers(t *testing.T) {
	// A clone, whose files are tracked as the project's are.
	dir := filepath.Join(t.TempDir(), "project")
	if out, err := exec.Command("git", "clone", "-q", "--no-hardlinks", "../..", dir).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	status := func() string {
		out, err := exec.Command("git", "-C", dir, "status", "--porcelain").Output()
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	var stdout string
	run := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := Run(append([]string{"bootstrap", "--dir", dir}, args...), &out, &errOut)
		stdout = out.String()
		return code, out.String() + errOut.String()
	}
	code, printed := run("--print-answers")
	recorded, err := os.ReadFile(filepath.Join(dir, answers.File))
	if err != nil || code != 0 || stdout != string(recorded) {
		t.Fatalf("--print-answers: exit %d, %v\n%s\nwant %s", code, err, printed, recorded)
	}
	cur := example.Answers(t)
	to := example.Other(cur)
	file := filepath.Join(t.TempDir(), "answers.yaml")
	if err := os.WriteFile(file, to.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := run("--answers", file); code != 0 || !strings.Contains(out, "dry run: ") || status() != "" {
		t.Fatalf("--answers without --yes: exit %d, the clone changed: %q\n%s", code, status(), out)
	}
	code, out := run("--answers", file, "--yes")
	dev := cur.AWS.Accounts["dev"]
	if code != 0 || !strings.Contains(out, "wrote ") || !strings.Contains(out, "1. Pulumi organisation "+to.Pulumi.Organization+" (Pulumi Cloud admin)") ||
		!strings.Contains(status(), "esc/aws/"+dev+".json") {
		t.Fatalf("--answers --yes: exit %d, the clone: %q\n%s", code, status(), out)
	}
	if _, err := os.Stat(filepath.Join(dir, "esc", "aws", to.AWS.Accounts["dev"]+".json")); err != nil {
		t.Errorf("the dev account's template is not renamed: %v", err)
	}
	if code, out := run("--answers", file, "--yes"); code != 0 || !strings.Contains(out, "nothing to write") {
		t.Errorf("--answers --yes again: exit %d\n%s", code, out)
	}
	// An answer of the wrong form is refused at its line, and nothing is
	// written.
	bad := strings.Replace(string(to.Marshal()), "organization: "+to.GitHub.Organization, "organization: not_a_login", 1)
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	before := status()
	if code, out := run("--answers", file, "--yes"); code != 1 || !strings.Contains(out, `answers.yaml:6:17: github.organization "not_a_login" is not one`) || status() != before {
		t.Errorf("--answers with a bad login: exit %d\n%s", code, out)
	}
}
