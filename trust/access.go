package trust

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// Access is Pulumi Cloud's part: the organisation's teams, what each may
// do to the project's stacks and ESC environments, and the OIDC issuer
// policies that hand their tokens to GitHub Actions jobs
// (esc/pulumi/access.yaml).
type Access struct {
	Organization string `yaml:"organization"`
	// MemberDefaults are what every member of the organisation gets on
	// every environment, whatever their teams (Settings, Access
	// Management: "Members of the organization will receive these
	// permissions. The default environment permission is write", Pulumi
	// ESC, Access control).
	MemberDefaults struct {
		EnvironmentPermission string `yaml:"environmentPermission"`
	} `yaml:"memberDefaults"`
	Teams  []Team `yaml:"teams"`
	Issuer struct {
		Name string `yaml:"name"`
		URL  string `yaml:"url"`
		// MaxExpiration caps, in seconds, the life of every token this
		// issuer's exchanges grant (0: Pulumi Cloud's own cap).
		MaxExpiration int            `yaml:"maxExpiration"`
		Policies      []IssuerPolicy `yaml:"policies"`
	} `yaml:"issuer"`
}

// DefaultTokenLifetime is how long an exchanged Pulumi Cloud token lasts
// when none is asked for: pulumi/auth-actions sends token-expiration
// (seconds) only when it is set (src/config.ts), and Pulumi Cloud's
// exchange then grants two hours ("Tokens expire after 2 hours by
// default", Pulumi's announcement of OIDC login in the CLI; POST
// /api/oauth/token's expiration, Pulumi Cloud REST API, OAuth Token
// Exchange).
const DefaultTokenLifetime = 2 * time.Hour

// TokenLifetime is the life Pulumi Cloud grants an exchange that asks for
// requested (0: none asked): the authorization server "grants or
// reduces" it (auth-actions' action.yml), down to the issuer's
// maxExpiration (OIDC Issuers REST API: "max expiration for tokens issued
// for this issuer in seconds").
func (a *Access) TokenLifetime(requested time.Duration) time.Duration {
	life := requested
	if life <= 0 {
		life = DefaultTokenLifetime
	}
	if limit := time.Duration(a.Issuer.MaxExpiration) * time.Second; limit > 0 && life > limit {
		life = limit
	}
	return life
}

// GrantedLifetime is the life Pulumi Cloud grants a pulumi/auth-actions
// step given its token-expiration input, seconds ("": not set), as the
// action reads it (getNumberInput, src/config.ts) and TokenLifetime
// grants it.
func (a *Access) GrantedLifetime(tokenExpiration string) (time.Duration, error) {
	var requested time.Duration
	if tokenExpiration != "" {
		n, err := strconv.Atoi(tokenExpiration)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("token-expiration %q: want a number of seconds", tokenExpiration)
		}
		requested = time.Duration(n) * time.Second
	}
	return a.TokenLifetime(requested), nil
}

// A Team is a Pulumi Cloud team and its permissions.
type Team struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Stacks      []struct {
		Stacks     string `yaml:"stacks"`
		Permission string `yaml:"permission"`
	} `yaml:"stacks"`
	Environments []struct {
		Environment string `yaml:"environment"`
		Permission  string `yaml:"permission"`
	} `yaml:"environments"`
	// Stored are where a token of the team is kept, for runs without an
	// OIDC exchange.
	Stored []string `yaml:"stored"`
}

// IssuerPolicy is one authorization policy of an OIDC issuer.
type IssuerPolicy struct {
	Decision  string            `yaml:"decision"`
	TokenType string            `yaml:"tokenType"`
	TeamName  string            `yaml:"teamName"`
	Rules     map[string]string `yaml:"rules"`
}

// Team is the team named name, or nil.
func (a *Access) Team(name string) *Team {
	for i := range a.Teams {
		if a.Teams[i].Name == name {
			return &a.Teams[i]
		}
	}
	return nil
}

// Stack permissions, weakest first.
var stackLevels = []string{"none", "read", "write", "admin"}

// StackPermission is the team's permission on stack (project/stack):
// the strongest of its grants that match.
func (t *Team) StackPermission(stack string) string {
	best := 0
	for _, s := range t.Stacks {
		if wildcard(s.Stacks, stack) {
			best = max(best, slices.Index(stackLevels, s.Permission))
		}
	}
	return stackLevels[best]
}

// Environment permissions: read shows the definition; open decrypts its
// secrets and runs its logins; write and admin include open.
var envOpens = []string{"open", "write", "admin"}

// applyMemberDefaults gives every team the organisation's default
// environment permission on every environment, as Pulumi Cloud gives it
// to every member: a run's token is never weaker than a member's. The
// default must be declared: Pulumi Cloud's own is write, which opens
// every environment, production's deployer credentials included.
func (a *Access) applyMemberDefaults() error {
	p := a.MemberDefaults.EnvironmentPermission
	switch p {
	case "none":
		return nil
	case "read", "open", "write", "admin":
	case "":
		return errors.New("memberDefaults.environmentPermission is not declared: Pulumi Cloud's default is write, which lets every member open every environment; declare none, and set it so in Settings, Access Management")
	default:
		return fmt.Errorf("memberDefaults.environmentPermission %q: want none, read, open, write or admin", p)
	}
	for i := range a.Teams {
		a.Teams[i].Environments = append(a.Teams[i].Environments, struct {
			Environment string `yaml:"environment"`
			Permission  string `yaml:"permission"`
		}{"*", p})
	}
	return nil
}

// MembersOpen reports whether every member of the organisation, in no
// team, may open every environment (a personal token's reach).
func (a *Access) MembersOpen() bool {
	return slices.Contains(envOpens, a.MemberDefaults.EnvironmentPermission)
}

// MayOpen reports whether the team may open environment (project/name).
func (t *Team) MayOpen(env string) bool {
	for _, e := range t.Environments {
		if wildcard(e.Environment, env) && slices.Contains(envOpens, e.Permission) {
			return true
		}
	}
	return false
}

// ErrNoPermission is ESC's answer to opening an environment, directly or
// as an import, without the open permission (what the CLI prints for a
// stack importing one: "opening environment: [0] \nDiags: You do not
// have permission to perform this operation.", pulumi/pulumi#15484).
var ErrNoPermission = errors.New("You do not have permission to perform this operation.")

// Exchange is what the issuer's policies give a GitHub Actions job with
// these claims asking for a token of tokenType (and team): the team's
// name, or an error naming why Pulumi Cloud denies the exchange. A deny
// wins over an allow; no allow is a deny.
func (a *Access) Exchange(claims map[string]string, tokenType, team string) error {
	allowed := false
	for _, p := range a.Issuer.Policies {
		if p.TokenType != tokenType || (p.TeamName != "" && p.TeamName != team) || !rulesHold(p.Rules, claims) {
			continue
		}
		switch p.Decision {
		case "deny":
			return fmt.Errorf("token exchange denied: a deny policy of issuer %s matches %s", a.Issuer.Name, claims["sub"])
		case "allow":
			allowed = true
		}
	}
	if !allowed {
		return fmt.Errorf("token exchange denied: no policy of issuer %s allows a %s token%s to %s", a.Issuer.Name, tokenType, teamSuffix(team), claims["sub"])
	}
	return nil
}

func teamSuffix(team string) string {
	if team == "" {
		return ""
	}
	return " of team " + team
}

func rulesHold(rules, claims map[string]string) bool {
	for k, v := range rules {
		if c, ok := claims[k]; !ok || !wildcard(v, c) {
			return false
		}
	}
	return true
}
