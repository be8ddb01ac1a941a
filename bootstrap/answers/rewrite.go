package answers

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/company/harness-platform/diag"
)

// A Rewrite is what writing one set of answers over another changes:
// every changed file's content under its new path, and the old paths
// that are renamed (esc/aws/<account>.json, esc/github/<App id>.json).
type Rewrite struct {
	Files   map[string][]byte // by new path: the files that change
	Renamed map[string]string // old path → new path
	// Changes are the values replaced, by what they are ("the AWS
	// account of dev").
	Changes map[string]int
}

// Values is how many values the rewrite replaces.
func (r *Rewrite) Values() int {
	n := 0
	for _, c := range r.Changes {
		n += c
	}
	return n
}

// Empty reports whether the rewrite changes nothing.
func (r *Rewrite) Empty() bool { return len(r.Files) == 0 }

// A rule finds one answer's value in a file.
type rule struct {
	what     string
	old, new string
	// adjoins reports whether c may not stand next to the value (it would
	// make the value part of a longer word or number).
	adjoins func(c byte) bool
	// in limits the rule to some files; nil is every file.
	in func(file string) bool
	// context says what a found value is: its replacement and what it
	// is ("": the rule's what), or no replacement where the value is
	// something else (not replaced). nil replaces every one.
	context func(before, after string) (repl, what string)
	// strict: a value no context claims is a problem, not something else.
	strict bool
	// name: the value is a name, which a dot and a letter continue into
	// a domain ("company.io" is not the organisation "company").
	name bool
}

func alnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func word(c byte) bool     { return alnum(c) || c == '_' || c == '-' }
func hostChar(c byte) bool { return alnum(c) || c == '-' }
func cidrChar(c byte) bool { return c >= '0' && c <= '9' || c == '.' || c == '/' }

// rules are the answers' values as they appear in the files, most
// specific first: a domain is found before the organisation named in it.
func rules(from, to Answers) []rule {
	var rs []rule
	// A value that does not change is still found, so that no other
	// rule reads it as its own (the organisation in the domain).
	add := func(r rule) {
		if r.old != "" {
			rs = append(rs, r)
		}
	}
	for _, d := range []struct{ what, old, new string }{
		{"the services' domain", from.Domains.Services, to.Domains.Services},
		{"the mail domain", from.Domains.Mail, to.Domains.Mail},
	} {
		add(rule{what: d.what, old: d.old, new: d.new, adjoins: hostChar})
		// As a regular expression, in Backstage's image pattern.
		add(rule{what: d.what, old: regexp.QuoteMeta(d.old), new: regexp.QuoteMeta(d.new), adjoins: hostChar})
	}
	for _, env := range slices.Sorted(maps.Keys(from.AWS.Accounts)) {
		add(rule{what: "the AWS account of " + env, old: from.AWS.Accounts[env], new: to.AWS.Accounts[env], adjoins: alnum})
	}
	for _, name := range slices.Sorted(maps.Keys(from.GitHub.Apps)) {
		add(rule{what: "the App id of " + name, old: from.GitHub.Apps[name].AppID, new: to.GitHub.Apps[name].AppID, adjoins: alnum})
		add(rule{what: "the installation id of " + name, old: from.GitHub.Apps[name].InstallationID, new: to.GitHub.Apps[name].InstallationID, adjoins: alnum})
	}
	add(rule{what: "the Harness account id", old: from.Harness.AccountID, new: to.Harness.AccountID, adjoins: word})
	// The secrets' region is written where it is the secrets' (the root
	// stack file's secretManager, the ESC logins, the secrets' ARNs); the
	// catalog's regions are the catalog's own.
	add(rule{what: "the secrets' region", old: from.AWS.SecretsRegion, new: to.AWS.SecretsRegion, adjoins: word,
		in: func(f string) bool {
			return strings.HasPrefix(f, "esc/") || path.Dir(f) == "." && strings.HasPrefix(f, "Pulumi.")
		},
		context: func(before, _ string) (string, string) {
			if strings.HasSuffix(before, "region: ") || strings.HasSuffix(before, "secretsmanager:") {
				return to.AWS.SecretsRegion, ""
			}
			return "", ""
		}})
	// The runners' networks, as a YAML flow list's items, a JSON array's
	// or in prose.
	if len(from.Runners.EgressCidrs) > 0 {
		quoted := strings.Join(to.Runners.EgressCidrs, `", "`)
		add(rule{what: "the runners' networks", old: strings.Join(from.Runners.EgressCidrs, `", "`), new: quoted, adjoins: cidrChar,
			context: func(before, after string) (string, string) {
				if strings.HasSuffix(before, `"`) && strings.HasPrefix(after, `"`) {
					return quoted, ""
				}
				return "", ""
			}})
		add(rule{what: "the runners' networks", old: strings.Join(from.Runners.EgressCidrs, ", "), new: strings.Join(to.Runners.EgressCidrs, ", "), adjoins: cidrChar})
	}
	gh, pu := from.GitHub.Organization, from.Pulumi.Organization
	orgChar := func(c byte) bool { return word(c) || c == '@' }
	switch {
	case gh != pu:
		add(rule{what: "the GitHub organisation", old: gh, new: to.GitHub.Organization, adjoins: orgChar, name: true})
		add(rule{what: "the Pulumi organisation", old: pu, new: to.Pulumi.Organization, adjoins: orgChar, name: true})
	default:
		// One name, two organisations: what surrounds it tells which; a
		// place that tells neither is refused even where the name stays,
		// so the files are always ready for the next rewrite.
		rs = append(rs, rule{what: "the GitHub or Pulumi organisation", old: gh, adjoins: orgChar, name: true, strict: true,
			context: func(before, after string) (string, string) {
				switch orgOf(before, after) {
				case "GitHub":
					return to.GitHub.Organization, "the GitHub organisation"
				case "Pulumi":
					return to.Pulumi.Organization, "the Pulumi organisation"
				}
				return "", ""
			}})
	}
	return rs
}

// pulumiStack is the rest of <org>/<project>/<stack or environment>; a
// path in a repository (<owner>/<repo>/.github/...) starts with a dot.
var pulumiStack = regexp.MustCompile(`^/[A-Za-z0-9_.-]+/([^./\s]|$)`)

// orgOf says whose organisation a name is by what surrounds it, as the
// files write each: "GitHub", "Pulumi", or "" where it cannot tell.
func orgOf(before, after string) string {
	// (" on ": an App's token on its owner, in the trust tables.)
	for _, p := range []string{"github.com/", "/repos/", "/orgs/", "owner: ", "owner ", "owner=", "repo:", "GitHub organisation ", " on "} {
		if strings.HasSuffix(before, p) {
			return "GitHub"
		}
	}
	// ESC's OIDC audiences and subjects, Pulumi Cloud's URLs and its
	// organisation's settings (pulumi/auth-actions' organization input).
	for _, p := range []string{"aws:", "urn:pulumi:org:", "pulumi.organization.login:", "app.pulumi.com/", "organization: ", "organisation "} {
		if strings.HasSuffix(before, p) {
			return "Pulumi"
		}
	}
	switch {
	case pulumiStack.MatchString(after):
		return "Pulumi" // an ESC environment or a stack: org/project/name
	case strings.HasPrefix(after, "/"):
		return "GitHub" // a repository: owner/name
	}
	return ""
}

// A span is one value found.
type span struct {
	start, end int
	new, what  string
}

// find returns the spans of rs in text, the first rule claiming a place,
// and the places of a value whose meaning no context tells.
func find(rs []rule, file, text string) ([]span, []int) {
	var spans []span
	var unknown []int
	claimed := func(s, e int) bool {
		for _, sp := range spans {
			if s < sp.end && sp.start < e {
				return true
			}
		}
		return false
	}
	for _, r := range rs {
		if r.in != nil && !r.in(file) {
			continue
		}
		for i := 0; ; {
			j := strings.Index(text[i:], r.old)
			if j < 0 {
				break
			}
			s, e := i+j, i+j+len(r.old)
			i = s + 1
			if s > 0 && r.adjoins(text[s-1]) || e < len(text) && r.adjoins(text[e]) {
				continue
			}
			if r.name && e+1 < len(text) && text[e] == '.' && alnum(text[e+1]) {
				continue
			}
			if claimed(s, e) {
				continue
			}
			repl, what := r.new, r.what
			if r.context != nil {
				var w string
				repl, w = r.context(text[max(0, s-40):s], text[e:min(len(text), e+40)])
				if w != "" {
					what = w
				}
				if repl == "" {
					if r.strict {
						unknown = append(unknown, s)
					}
					continue
				}
			}
			spans = append(spans, span{s, e, repl, what})
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	return spans, unknown
}

func apply(text string, spans []span) string {
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(text[last:sp.start])
		b.WriteString(sp.new)
		last = sp.end
	}
	b.WriteString(text[last:])
	return b.String()
}

// Plan is the rewrite of files (by path, relative to the project) from
// one set of answers to another. Go sources and the tests' fixtures are
// not rewritten (Rewritten): the module's path is not an organisation's
// setting, and the tests read the files through internal/example. The error names every place where a
// name could be either organisation's, and nothing is planned.
func Plan(files map[string][]byte, from, to Answers) (*Rewrite, error) {
	rs := rules(from, to)
	r := &Rewrite{Files: map[string][]byte{}, Renamed: map[string]string{}, Changes: map[string]int{}}
	var diags diag.List
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if !Rewritten(name) || !text(files[name]) || name == File {
			continue
		}
		content := string(files[name])
		spans, unknown := find(rs, name, content)
		for _, at := range unknown {
			line := strings.Count(content[:at], "\n") + 1
			col := at - strings.LastIndex(content[:at], "\n")
			diags.Add(name, line, col, "write it as owner/name (GitHub) or org/project/name (Pulumi), or as its own organisation's setting",
				"%q here could be the GitHub or the Pulumi organisation", from.GitHub.Organization)
		}
		pathSpans, _ := find(rs, name, name)
		newName := apply(name, pathSpans)
		changed := apply(content, spans)
		if changed == content && newName == name {
			continue
		}
		for _, sp := range spans {
			if content[sp.start:sp.end] != sp.new {
				r.Changes[sp.what]++
			}
		}
		r.Files[newName] = []byte(changed)
		if newName != name {
			r.Renamed[name] = newName
		}
	}
	if len(diags) > 0 {
		return nil, &AmbiguousError{diags.Sorted()}
	}
	if recorded := to.Marshal(); string(files[File]) != string(recorded) {
		r.Files[File] = recorded
	}
	return r, nil
}

// Localize rewrites s, a text of file (or of none: ""), from the
// answers from to those to, as Plan rewrites a file: how tests turn a
// fixture written with the example's values into the files' own.
func Localize(file, s string, from, to Answers) (string, error) {
	spans, unknown := find(rules(from, to), file, s)
	if len(unknown) > 0 {
		return "", fmt.Errorf("%q: %q at byte %d could be the GitHub or the Pulumi organisation", s, from.GitHub.Organization, unknown[0])
	}
	return apply(s, spans), nil
}

// AmbiguousError lists the places where a name could be either
// organisation's, which bootstrap does not guess.
type AmbiguousError struct{ List diag.List }

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("bootstrap cannot tell which organisation %d place(s) name, so it writes nothing:\n%s", len(e.List), e.List)
}

// Rewritten reports whether bootstrap writes a tracked file's values:
// every file but the Go module's and the tests' fixtures (testdata/),
// which, like the tests, are the example's.
func Rewritten(name string) bool {
	return !strings.HasSuffix(name, ".go") && path.Base(name) != "go.mod" && path.Base(name) != "go.sum" &&
		!strings.HasPrefix(name, "testdata/") && !strings.Contains(name, "/testdata/")
}

func text(b []byte) bool { return utf8.Valid(b) && !bytes.ContainsRune(b, 0) }

// Tracked reads the files git tracks in root, by path.
func Tracked(root string) (map[string][]byte, error) {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		return nil, fmt.Errorf("listing the tracked files of %s (git ls-files): %v; run bootstrap in a clone of the repository", root, err)
	}
	files := map[string][]byte{}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, name))
		if os.IsNotExist(err) {
			continue // deleted in the work tree
		}
		if err != nil {
			return nil, err
		}
		files[name] = data
	}
	return files, nil
}

// Apply writes the rewrite into root: every new content to a temporary
// file beside its target first, then each renamed into place and the
// renamed files' old paths removed, so a failed write leaves root as it
// was.
func (r *Rewrite) Apply(root string) error {
	temps := map[string]string{}
	cleanup := func() {
		for _, t := range temps {
			os.Remove(t)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(r.Files)) {
		target := filepath.Join(root, name)
		mode := os.FileMode(0o644)
		old := name
		for o, n := range r.Renamed {
			if n == name {
				old = o
			}
		}
		if fi, err := os.Stat(filepath.Join(root, old)); err == nil {
			mode = fi.Mode().Perm()
		}
		f, err := os.CreateTemp(filepath.Dir(target), ".bootstrap-*")
		if err != nil {
			cleanup()
			return err
		}
		temps[name] = f.Name()
		_, err = f.Write(r.Files[name])
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(f.Name(), mode)
		}
		if err != nil {
			cleanup()
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(temps)) {
		if err := os.Rename(temps[name], filepath.Join(root, name)); err != nil {
			return fmt.Errorf("%s: %w (the files before it are written; run bootstrap again)", name, err)
		}
	}
	for old := range r.Renamed {
		if err := os.Remove(filepath.Join(root, old)); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

// Over is files with the rewrite applied, as Apply leaves them on disk.
func (r *Rewrite) Over(files map[string][]byte) map[string][]byte {
	out := maps.Clone(files)
	for old := range r.Renamed {
		delete(out, old)
	}
	maps.Copy(out, r.Files)
	return out
}
