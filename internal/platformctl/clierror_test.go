package platformctl

import (
	"strings"
	"testing"
)

// An Automation API error reaches the user as the CLI's own error line,
// once, without the code/stdout/stderr dump (sdk/v3/go/auto autoError).
func TestPlainCLIErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"stack \"staging\" reads its upstream \"dev\", which could not be read: failed to select stack: exit status 255\ncode: 255\nstdout: \nstderr: error: PULUMI_ACCESS_TOKEN must be set for login during non-interactive CLI sessions\nerror: PULUMI_ACCESS_TOKEN must be set for login during non-interactive CLI sessions\n",
			"stack \"staging\" reads its upstream \"dev\", which could not be read: failed to select stack: exit status 255: the Pulumi CLI says: PULUMI_ACCESS_TOKEN must be set for login during non-interactive CLI sessions"},
		{"failed to run update: exit status 3\ncode: 3\nstdout: Updating (dev)\n   pulumi:pulumi:Stack ...\nstderr: some warning\nthe last line\n",
			"failed to run update: exit status 3: the Pulumi CLI says: the last line"},
		{"failed to run update: exit status 1\ncode: 1\nstdout: \nstderr: \n", "failed to run update: exit status 1"},
		{"nothing of the Automation API", "nothing of the Automation API"},
	} {
		if got := plain(tc.in); got != tc.want {
			t.Errorf("plain(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// version reads no catalog and names every pin.
func TestVersion(t *testing.T) {
	var out, errOut strings.Builder
	root := newRoot(&out, &errOut)
	root.SetArgs([]string{"version"})
	if err := root.Execute(); err != nil {
		t.Fatal(err, errOut.String())
	}
	for _, want := range []string{"platformctl: ", "Pulumi CLI: v3.256.0", "aws v6.83.2", "kubernetes v4.33.0", "github v6.14.1", "harness v0.16.0", "policy pack: harness-platform v1.0.0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("version: no %q in\n%s", want, out.String())
		}
	}
}
