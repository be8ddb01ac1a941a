package catalog

import (
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/company/harness-platform/diag"
	"github.com/company/harness-platform/ident"
)

// checkStacks checks every stack file: its environment, regions and
// networks (no two overlap), foundation, approval, change window and
// infrastructure, and orders the stacks into the promotion chain.
func (v *validator) checkStacks() {
	envIDs, envFirst := map[string]string{}, map[string]diag.Pos{}
	type network struct {
		prefix      netip.Prefix
		stack, name string
	}
	var networks []network // every environment's networks: none may overlap
	var roots []*stackDoc
	for _, name := range sortedKeys(v.stacks) {
		st := v.stacks[name]
		pos := st.At.Pos()
		if name == CredentialsShard {
			v.diags.Add(st.file, 1, 1, "rename the stack file: Pulumi."+CredentialsShard+".<environment>.yaml are the environments' credentials stacks",
				"stack %q has the name reserved for the environments' credentials stacks", name)
		}
		env := &st.Environment
		v.checkInfrastructure(st)
		if env.Name != "" {
			if err := ident.CheckDNSLabel(env.Name); err != nil {
				v.at(env.At.Field("name"), "use a lower-case name such as int-stable", "environment name %v", err)
			}
			idPos := env.At.Field("identifier")
			if id := env.identifier(); v.checkIdent(idPos, "environment", id) {
				v.unique("environment", st.name+" ("+id+")", id, idPos, envIDs, envFirst)
			}
		}
		if len(st.Regions) == 0 && st.At.Pos().Line > 0 {
			v.at(st.At.Field(Namespace+":regions"), "list at least one region", "stack %q has no regions", st.name)
		}
		seenRegion := map[string]bool{}
		for i, r := range st.Regions {
			rpos := st.At.Item(Namespace+":regions", i)
			if _, ok := v.regions[r.Name]; !ok && r.Name != "" {
				v.at(r.At.Field("name"), v.suggestion(r.Name, keys(v.regions), RegionsFile), "unknown region %q", r.Name)
			}
			if seenRegion[r.Name] {
				v.at(rpos, "remove the duplicate", "region %q is listed twice", r.Name)
			}
			seenRegion[r.Name] = true
			if r.NetworkCIDR != "" {
				prefix, err := netip.ParsePrefix(r.NetworkCIDR)
				switch {
				case err != nil || !prefix.Addr().Is4():
					v.at(r.At.Field("networkCidr"), "write an IPv4 network such as 10.3.0.0/17", "networkCidr %q is not an IPv4 CIDR", r.NetworkCIDR)
				case prefix.Masked() != prefix:
					v.at(r.At.Field("networkCidr"), fmt.Sprintf("write %s", prefix.Masked()), "networkCidr %q has host bits set", r.NetworkCIDR)
				default:
					for _, n := range networks {
						if n.prefix.Overlaps(prefix) {
							v.at(r.At.Field("networkCidr"), "give each environment and region a network of its own",
								"networkCidr %s overlaps %s (stack %s, region %s)", prefix, n.prefix, n.stack, n.name)
						}
					}
					networks = append(networks, network{prefix, st.name, r.Name})
				}
			}
			if r.TokenGeneration < 0 || (r.At.Has("delegateTokenGeneration") && r.TokenGeneration == 0) {
				v.at(r.At.Field("delegateTokenGeneration"), "write 1 or more (platformctl rotate-delegate-token -s "+st.name+" --region "+r.Name+" raises it)",
					"delegateTokenGeneration %d is not a generation", r.TokenGeneration)
			}
			if env.Name != "" {
				if err := ident.CheckDNSLabel(ident.DelegateName(env.Name, r.Name)); err != nil {
					v.at(rpos, "shorten the environment name", "delegate name %v", err)
				}
			}
		}
		if st.Upstream == "" {
			roots = append(roots, st)
			if st.Foundation == nil {
				v.at(pos, "add "+Namespace+":foundation (org, project, github), or set "+Namespace+":upstream", "stack %q has no upstream, so it owns the foundation, but has no foundation settings", st.name)
			}
		} else {
			if _, ok := v.stacks[st.Upstream]; !ok {
				v.at(st.At.Field(Namespace+":upstream"), v.suggestion(st.Upstream, keys(v.stacks), "Pulumi."+st.Upstream+".yaml"), "upstream stack %q has no stack file", st.Upstream)
			}
			if st.Foundation != nil {
				v.at(st.At.Field(Namespace+":foundation"), "move it to the stack with no upstream", "only the stack with no upstream owns the foundation; %q has upstream %q", st.name, st.Upstream)
			}
			v.checkTestedRegions(st)
		}
		if f := st.Foundation; f != nil {
			v.checkIdent(f.At.Field("org"), "organization", f.Org.Identifier)
			v.checkIdent(f.At.Field("project"), "project", f.Project.Identifier)
			v.checkIdent(f.Github.At.Field("connectorIdentifier"), "GitHub connector", f.Github.connectorIdentifier())
			if f.Github.URL != "" && !strings.HasPrefix(f.Github.URL, "https://") {
				v.at(f.Github.At.Field("url"), "use the https URL of the repository", "github url %q is not an https URL", f.Github.URL)
			}
			r := &f.Registry
			v.checkIdent(r.At.Field("connectorIdentifier"), "Docker registry connector", r.connectorIdentifier())
			if r.URL != "" && (!strings.HasPrefix(r.URL, "https://") || r.host() == "") {
				v.at(r.At.Field("url"), "use the https URL of the registry, such as https://registry.example.org", "registry url %q is not an https URL", r.URL)
			}
			if f.Repository != "" && !repoPattern.MatchString(f.Repository) {
				v.at(f.At.Field("repository"), "write the repository as owner/name, e.g. octo-org/harness-platform", "foundation repository %q is not owner/name", f.Repository)
			}
			// The deploy link is <backstageUrl>/create/templates/...: a
			// query or a fragment here would swallow that path.
			if b := f.BackstageURL; b != "" {
				if u, err := url.Parse(b); err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
					v.at(f.At.Field("backstageUrl"), "write the https URL Backstage is served at (its app.baseUrl), such as https://backstage.example.org",
						"foundation backstageUrl %q is not the https URL of a Backstage instance", b)
				}
			}
			switch {
			case r.Username == "" && r.PasswordSecret != "":
				v.at(r.At.Field("passwordSecret"), "set registry.username, or remove passwordSecret", "registry passwordSecret is set but registry.username is not")
			case r.Username != "" && r.PasswordSecret == "":
				v.at(r.At.Field("username"), "name the password's AWS Secrets Manager secret in registry.passwordSecret", "registry username %q has no passwordSecret", r.Username)
			}
			v.checkSecretName(r.At.Field("passwordSecret"), "registry passwordSecret", r.PasswordSecret)
			app := &f.Github.App
			for _, id := range []struct{ key, value string }{{"applicationId", app.ApplicationID}, {"installationId", app.InstallationID}} {
				if id.value != "" && !digits.MatchString(id.value) {
					v.at(app.At.Field(id.key), "write the number GitHub shows, quoted, e.g. \"123456\"", "github app %s %q is not a number", id.key, id.value)
				}
			}
			v.checkSecretName(app.At.Field("privateKeySecret"), "github app privateKeySecret", app.PrivateKeySecret)
			sm := &f.SecretManager
			v.checkIdent(sm.At.Field("connectorIdentifier"), "AWS Secrets Manager connector", sm.connectorIdentifier())
			if sm.Region != "" && !awsRegion.MatchString(sm.Region) {
				v.at(sm.At.Field("region"), "write an AWS region, e.g. eu-west-1", "secretManager region %q is not an AWS region", sm.Region)
			}
			if sm.RoleArn != "" && !roleArn.MatchString(sm.RoleArn) {
				v.at(sm.At.Field("roleArn"), "write the role's ARN, arn:aws:iam::<account>:role/<name>", "secretManager roleArn %q is not an IAM role ARN", sm.RoleArn)
			}
		}
		if st.isProduction() && st.ChangeWindow == nil {
			v.at(pos, "add "+Namespace+":changeWindow (days, start, end)", "Production stack %q has no change window", st.name)
		}
		if a := st.approval(); a != nil {
			for _, g := range []struct {
				key string
				n   int
			}{{"teamApprovals", a.TeamApprovals}, {"platformApprovals", a.PlatformApprovals}} {
				if g.n < 1 {
					v.at(st.Approval.At.Field(g.key), "require at least 1", "approval %s %d is too low: the gate would pass without that group", g.key, g.n)
				}
			}
			if !durationPattern.MatchString(a.Timeout) {
				v.at(st.At.Field(Namespace+":approval"), "write a Harness duration such as 1d", "approval timeout %q is not a duration", a.Timeout)
			}
		}
		if w := st.ChangeWindow; w != nil {
			for i, d := range w.Days {
				if !slices.Contains(weekdays, d) {
					v.at(w.At.Item("days", i), "use one of: "+strings.Join(weekdays, ", "), "%q is not a weekday", d)
				}
			}
			for _, k := range []string{"start", "end"} {
				val := w.Start
				if k == "end" {
					val = w.End
				}
				if val != "" && !hhmm.MatchString(val) {
					v.at(w.At.Field(k), "write it as HH:MM in UTC, e.g. 10:00", "change window %s %q is not a time", k, val)
				}
			}
			if hhmm.MatchString(w.Start) && hhmm.MatchString(w.End) && w.Start >= w.End {
				v.at(w.At.Field("end"), "end after start, on the same day (UTC)", "change window ends at %s, not after its start %s", w.End, w.Start)
			}
			for i, d := range w.Freeze {
				if _, err := time.Parse(time.DateOnly, d); err != nil {
					v.at(w.At.Item("freeze", i), "write a date as YYYY-MM-DD", "freeze date %q is not a date", d)
				}
			}
		}
	}
	if len(roots) > 1 {
		for _, st := range roots[1:] {
			v.at(st.At.Pos(), fmt.Sprintf("set %s:upstream in %s; only %s owns the foundation", Namespace, st.file, roots[0].file), "stacks %q and %q both have no upstream and so both claim the foundation", roots[0].name, st.name)
		}
	}
	if len(roots) == 0 && len(v.stacks) > 0 {
		v.at(diag.Pos{File: "Pulumi.<stack>.yaml"}, "remove "+Namespace+":upstream from the first stack of the chain", "every stack has an upstream: no stack owns the foundation")
	}
	v.orderChain(roots)
}

// chain orders the stacks from the root and reports cycles.
func (v *validator) orderChain(roots []*stackDoc) {
	if len(roots) != 1 {
		return
	}
	children := map[string][]string{}
	for _, name := range sortedKeys(v.stacks) {
		if up := v.stacks[name].Upstream; up != "" {
			children[up] = append(children[up], name)
		}
	}
	queue := []string{roots[0].name}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		v.chain = append(v.chain, name)
		queue = append(queue, children[name]...)
	}
	for _, name := range sortedKeys(v.stacks) {
		if !slices.Contains(v.chain, name) {
			st := v.stacks[name]
			if _, ok := v.stacks[st.Upstream]; ok {
				v.at(st.At.Field(Namespace+":upstream"), "break the cycle: the chain must start at the foundation stack", "stack %q is not reachable from the foundation stack %q (its upstream chain is a cycle)", name, roots[0].name)
			}
		}
	}
}

// checkTestedRegions holds a Production environment to its upstream's
// regions: a Production run deploys its tag to the same region of the
// upstream first (plan: testedStage), so a region the upstream lacks
// could never be deployed to.
func (v *validator) checkTestedRegions(st *stackDoc) {
	up, ok := v.stacks[st.Upstream]
	if !ok || !st.isProduction() {
		return
	}
	for i, r := range st.Regions {
		if _, known := v.regions[r.Name]; !known || slices.Contains(up.regionNames(), r.Name) {
			continue
		}
		v.at(st.At.Item(Namespace+":regions", i), fmt.Sprintf("add %q to %s, or remove it here", r.Name, up.file),
			"region %q of Production environment %q is not a region of its upstream %q: a Production run deploys its image tag to the same region of %q first", r.Name, st.name, up.name, up.name)
	}
}

var (
	digits = regexp.MustCompile(`^[0-9]+$`)
	// A Secrets Manager secret name: letters, digits and /_+=.@-, at most
	// 512 (AWS Secrets Manager API Reference, CreateSecret, Name).
	secretName = regexp.MustCompile(`^[A-Za-z0-9/_+=.@-]{1,512}$`)
	awsRegion  = regexp.MustCompile(`^[a-z]{2}(-gov)?-[a-z]+-[0-9]$`)
)

// checkSecretName refuses a name AWS Secrets Manager would not hold.
func (v *validator) checkSecretName(at diag.Pos, what, name string) {
	if name != "" && !secretName.MatchString(name) {
		v.at(at, "use the secret's name in AWS Secrets Manager: letters, digits and /_+=.@-", "%s %q is not a Secrets Manager secret name", what, name)
	}
}
