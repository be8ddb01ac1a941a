package platformctl

import "testing"

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
