package trust

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
)

// An Account is one AWS account's part of the identities: its roles, the
// secrets they read and the OIDC audiences it trusts, read from the
// CloudFormation template that creates them (esc/aws/<account>.json).
type Account struct {
	ID        string
	Roles     map[string]*Role   // by name
	Secrets   map[string]*Secret // by name
	Audiences []string           // of its api.pulumi.com/oidc provider
}

// A Role is an IAM role: its trust policy, its longest session and what
// its policies allow.
type Role struct {
	Account, Name      string
	MaxSessionDuration time.Duration
	Trust              Policy
	Managed            []string
	Inline             []Policy
}

// ARN is the role's ARN.
func (r *Role) ARN() string { return "arn:aws:iam::" + r.Account + ":role/" + r.Name }

// A Secret is an AWS Secrets Manager secret and what the credential it
// holds may do (its tag harness-platform:grants, "read" or "write").
type Secret struct {
	Name, Description string
	Writes            bool
}

// Policy is an IAM policy document.
type Policy struct {
	Statement []Statement
}

// Statement is one statement of a policy document.
type Statement struct {
	Sid       string
	Effect    string
	Principal map[string]list
	Action    list
	Resource  list
	Condition map[string]map[string]list
}

// list is an IAM value that is a string or a list of strings.
type list []string

func (l *list) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*l = list{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*l = many
	return nil
}

// template is the part of a CloudFormation template the accounts use.
type template struct {
	Resources map[string]struct {
		Type       string
		Properties json.RawMessage
	}
}

func parseAccount(id string, data []byte) (*Account, error) {
	var t template
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, err
	}
	a := &Account{ID: id, Roles: map[string]*Role{}, Secrets: map[string]*Secret{}}
	for logical, r := range t.Resources {
		switch r.Type {
		case "AWS::IAM::Role":
			var p struct {
				RoleName                 string
				MaxSessionDuration       int
				AssumeRolePolicyDocument Policy
				ManagedPolicyArns        []string
				Policies                 []struct{ PolicyDocument Policy }
			}
			if err := json.Unmarshal(r.Properties, &p); err != nil {
				return nil, fmt.Errorf("%s: %w", logical, err)
			}
			if p.MaxSessionDuration == 0 {
				p.MaxSessionDuration = 3600 // IAM's default
			}
			role := &Role{Account: id, Name: p.RoleName, MaxSessionDuration: time.Duration(p.MaxSessionDuration) * time.Second,
				Trust: p.AssumeRolePolicyDocument, Managed: p.ManagedPolicyArns}
			for _, q := range p.Policies {
				role.Inline = append(role.Inline, q.PolicyDocument)
			}
			a.Roles[role.Name] = role
		case "AWS::SecretsManager::Secret":
			var p struct {
				Name, Description string
				Tags              []struct{ Key, Value string }
			}
			if err := json.Unmarshal(r.Properties, &p); err != nil {
				return nil, fmt.Errorf("%s: %w", logical, err)
			}
			s := &Secret{Name: p.Name, Description: p.Description}
			grants := ""
			for _, t := range p.Tags {
				if t.Key == GrantsTag {
					grants = t.Value
				}
			}
			switch grants {
			case "read":
			case "write":
				s.Writes = true
			default:
				return nil, fmt.Errorf("%s: secret %s has tag %s %q; say what its credential may do: read or write", logical, p.Name, GrantsTag, grants)
			}
			a.Secrets[s.Name] = s
		case "AWS::IAM::OIDCProvider":
			var p struct {
				Url          string
				ClientIdList []string
			}
			if err := json.Unmarshal(r.Properties, &p); err != nil {
				return nil, fmt.Errorf("%s: %w", logical, err)
			}
			if p.Url == Issuer {
				a.Audiences = p.ClientIdList
			}
		}
	}
	return a, nil
}

// GrantsTag is the tag of a secret that says what its credential may do.
const GrantsTag = "harness-platform:grants"

// Issuer is Pulumi's OIDC issuer, which ESC's logins present tokens of
// (https://www.pulumi.com/docs/esc/guides/configuring-oidc/aws/).
const Issuer = "https://api.pulumi.com/oidc"

// AWS's answers, as its SDKs print them.
const (
	notAuthorizedToAssume = "An error occurred (AccessDenied) when calling the AssumeRoleWithWebIdentity operation: Not authorized to perform sts:AssumeRoleWithWebIdentity"
	durationTooLong       = "An error occurred (ValidationError) when calling the AssumeRoleWithWebIdentity operation: The requested DurationSeconds exceeds the MaxSessionDuration set for this role."
)

// AssumeWithWebIdentity is STS's answer to an ESC login presenting a
// token with claims for duration: AccessDenied unless a statement of the
// role's trust policy allows sts:AssumeRoleWithWebIdentity to the
// account's Pulumi OIDC provider on exactly these claims; a duration
// past the role's MaxSessionDuration is refused as STS refuses it.
func (a *Account) AssumeWithWebIdentity(role string, claims map[string]string, duration time.Duration) (*Role, error) {
	r, ok := a.Roles[role]
	if !ok || !slices.Contains(a.Audiences, claims["aud"]) {
		// STS does not tell a missing role from one that refuses.
		return nil, fmt.Errorf("%s", notAuthorizedToAssume)
	}
	provider := "arn:aws:iam::" + a.ID + ":oidc-provider/" + strings.TrimPrefix(Issuer, "https://")
	allowed := false
	for _, s := range r.Trust.Statement {
		if s.Effect != "Allow" || !slices.Contains(s.Principal["Federated"], provider) || !matchAny(s.Action, "sts:AssumeRoleWithWebIdentity") {
			continue
		}
		if conditionsHold(s.Condition, claims) {
			allowed = true
		}
	}
	if !allowed {
		return nil, fmt.Errorf("%s", notAuthorizedToAssume)
	}
	if duration > r.MaxSessionDuration {
		return nil, fmt.Errorf("%s", durationTooLong)
	}
	return r, nil
}

// conditionsHold evaluates StringEquals and StringLike on the token's
// claims (keys api.pulumi.com/oidc:<claim>); any other operator holds
// for nothing, as an unknown condition key never matches.
func conditionsHold(conds map[string]map[string]list, claims map[string]string) bool {
	prefix := strings.TrimPrefix(Issuer, "https://") + ":"
	for op, keys := range conds {
		for key, values := range keys {
			claim, ok := claims[strings.TrimPrefix(key, prefix)]
			if !ok || !strings.HasPrefix(key, prefix) {
				return false
			}
			switch op {
			case "StringEquals":
				if !slices.Contains(values, claim) {
					return false
				}
			case "StringLike":
				if !matchAny(values, claim) {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// matchAny reports whether s matches one of IAM's patterns (* any run, ?
// one character; path.Match's rules with / treated as any character).
func matchAny(patterns list, s string) bool {
	for _, p := range patterns {
		if wildcard(p, s) {
			return true
		}
	}
	return false
}

func wildcard(pattern, s string) bool {
	// path.Match stops * at /; IAM does not: match with / swapped out.
	const sep = "\x00"
	ok, err := path.Match(strings.ReplaceAll(pattern, "/", sep), strings.ReplaceAll(s, "/", sep))
	return err == nil && ok
}

// Managed policies the accounts attach, and what they allow: ReadOnly
// reads (its actions are Get, List, Describe and the like, and not
// secretsmanager:GetSecretValue).
const (
	AdministratorAccess = "arn:aws:iam::aws:policy/AdministratorAccess"
	ReadOnlyAccess      = "arn:aws:iam::aws:policy/ReadOnlyAccess"
)

// Allows reports whether the role's policies allow action on resource.
func (r *Role) Allows(action, resource string) bool {
	for _, m := range r.Managed {
		switch m {
		case AdministratorAccess:
			return true
		case ReadOnlyAccess:
			if readOnlyAction(action) && action != "secretsmanager:GetSecretValue" {
				return true
			}
		}
	}
	for _, p := range r.Inline {
		for _, s := range p.Statement {
			if s.Effect == "Allow" && matchAny(s.Action, action) && matchAny(s.Resource, resource) {
				return true
			}
		}
	}
	return false
}

// Writes reports whether the role may change anything in its account:
// a managed policy other than ReadOnlyAccess, or an inline action that
// is not a read.
func (r *Role) Writes() bool {
	for _, m := range r.Managed {
		if m != ReadOnlyAccess {
			return true
		}
	}
	for _, p := range r.Inline {
		for _, s := range p.Statement {
			for _, a := range s.Action {
				if s.Effect == "Allow" && !readOnlyAction(a) {
					return true
				}
			}
		}
	}
	return false
}

func readOnlyAction(action string) bool {
	_, verb, _ := strings.Cut(action, ":")
	for _, p := range []string{"Get", "List", "Describe", "BatchGet"} {
		if strings.HasPrefix(verb, p) {
			return true
		}
	}
	return false
}

// GetSecretValue is Secrets Manager's answer to the role's session
// reading secret name in region.
func (a *Account) GetSecretValue(r *Role, session, region, name string) (*Secret, error) {
	arn := fmt.Sprintf("arn:aws:secretsmanager:%s:%s:secret:%s-AbCdEf", region, a.ID, name)
	if !r.Allows("secretsmanager:GetSecretValue", arn) {
		return nil, fmt.Errorf("An error occurred (AccessDeniedException) when calling the GetSecretValue operation: User: arn:aws:sts::%s:assumed-role/%s/%s is not authorized to perform: secretsmanager:GetSecretValue on resource: %s because no identity-based policy allows the secretsmanager:GetSecretValue action",
			a.ID, r.Name, session, name)
	}
	s, ok := a.Secrets[name]
	if !ok {
		return nil, fmt.Errorf("An error occurred (ResourceNotFoundException) when calling the GetSecretValue operation: Secrets Manager can't find the specified secret.")
	}
	return s, nil
}
