// Command tfconstraints extracts, from the Go sources of a Terraform
// provider written with terraform-plugin-sdk/v2, the constraints its
// resources' schemas declare: required inputs, force-new, conflicts,
// exactly-one-of, at-least-one-of, required-with, list sizes, defaults
// and allowed values. It names each property as the Pulumi bridge does
// (camelCase, lists and sets pluralised), checked against the Pulumi Go
// SDK's own field tags. The simulated AWS enforces its output
// (simulated/aws/aws-constraints.json):
//
//	go run ./tools/tfconstraints -src DIR -commit SHA > simulated/aws/aws-constraints.json
//
// DIR holds terraform-provider-aws's files at that commit, under their
// repository paths (internal/service/..., names/attr_consts_gen.go). It
// parses the sources; it never builds or runs them. With -keep FILE (a
// previous output), a resource whose source file DIR does not hold is
// copied from FILE with its recorded commit, so that adding a resource
// needs only its own source:
//
//	go run ./tools/tfconstraints -src DIR -commit SHA -commits TSV -keep simulated/aws/aws-constraints.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// resources are the Terraform resources the program declares, by the
// Pulumi type token the bridge gives them, the source file that declares
// them and its Pulumi SDK file; fn names the function returning the
// schema where the source predates the @SDKResource annotation.
var resources = []struct{ token, tf, file, sdk, fn string }{
	{"aws:eks/cluster:Cluster", "aws_eks_cluster", "internal/service/eks/cluster.go", "eks/cluster.go", ""},
	{"aws:eks/nodeGroup:NodeGroup", "aws_eks_node_group", "internal/service/eks/node_group.go", "eks/nodeGroup.go", ""},
	{"aws:eks/addon:Addon", "aws_eks_addon", "internal/service/eks/addon.go", "eks/addon.go", ""},
	{"aws:eks/accessEntry:AccessEntry", "aws_eks_access_entry", "internal/service/eks/access_entry.go", "eks/accessEntry.go", ""},
	{"aws:eks/accessPolicyAssociation:AccessPolicyAssociation", "aws_eks_access_policy_association", "internal/service/eks/access_policy_association.go", "eks/accessPolicyAssociation.go", ""},
	{"aws:ec2/vpc:Vpc", "aws_vpc", "internal/service/ec2/vpc_.go", "ec2/vpc.go", ""},
	{"aws:ec2/subnet:Subnet", "aws_subnet", "internal/service/ec2/vpc_subnet.go", "ec2/subnet.go", ""},
	{"aws:ec2/internetGateway:InternetGateway", "aws_internet_gateway", "internal/service/ec2/vpc_internet_gateway.go", "ec2/internetGateway.go", "InternetGateway"},
	{"aws:ec2/natGateway:NatGateway", "aws_nat_gateway", "internal/service/ec2/vpc_nat_gateway.go", "ec2/natGateway.go", ""},
	{"aws:ec2/routeTable:RouteTable", "aws_route_table", "internal/service/ec2/vpc_route_table.go", "ec2/routeTable.go", "RouteTable"},
	{"aws:ec2/routeTableAssociation:RouteTableAssociation", "aws_route_table_association", "internal/service/ec2/vpc_route_table_association.go", "ec2/routeTableAssociation.go", "RouteTableAssociation"},
	{"aws:ec2/eip:Eip", "aws_eip", "internal/service/ec2/ec2_eip.go", "ec2/eip.go", ""},
	{"aws:iam/role:Role", "aws_iam_role", "internal/service/iam/role.go", "iam/role.go", "Role"},
	{"aws:iam/rolePolicyAttachment:RolePolicyAttachment", "aws_iam_role_policy_attachment", "internal/service/iam/role_policy_attachment.go", "iam/rolePolicyAttachment.go", "RolePolicyAttachment"},
	{"aws:iam/openIdConnectProvider:OpenIdConnectProvider", "aws_iam_openid_connect_provider", "internal/service/iam/openid_connect_provider.go", "iam/openIdConnectProvider.go", ""},
	{"aws:kms/key:Key", "aws_kms_key", "internal/service/kms/key.go", "kms/key.go", ""},
	{"aws:cloudwatch/logGroup:LogGroup", "aws_cloudwatch_log_group", "internal/service/logs/group.go", "cloudwatch/logGroup.go", ""},
	{"aws:secretsmanager/secret:Secret", "aws_secretsmanager_secret", "internal/service/secretsmanager/secret.go", "secretsmanager/secret.go", ""},
	{"aws:secretsmanager/secretVersion:SecretVersion", "aws_secretsmanager_secret_version", "internal/service/secretsmanager/secret_version.go", "secretsmanager/secretVersion.go", ""},
	{"aws:iam/rolePolicy:RolePolicy", "aws_iam_role_policy", "internal/service/iam/role_policy.go", "iam/rolePolicy.go", ""},
	{"aws:ec2/vpcEndpoint:VpcEndpoint", "aws_vpc_endpoint", "internal/service/ec2/vpc_endpoint.go", "ec2/vpcEndpoint.go", ""},
	{"aws:ec2/securityGroup:SecurityGroup", "aws_security_group", "internal/service/ec2/vpc_security_group.go", "ec2/securityGroup.go", ""},
}

// Property is one input's constraints, keyed by its Pulumi path (nested
// objects joined by dots).
type Property struct {
	Required      bool     `json:"required,omitempty"`
	Computed      bool     `json:"computed,omitempty"`
	AutoNamed     bool     `json:"autoNamed,omitempty"` // required by Terraform, named by the bridge when absent
	ForceNew      bool     `json:"forceNew,omitempty"`
	List          bool     `json:"list,omitempty"`
	MaxItems      int      `json:"maxItems,omitempty"`
	MinItems      int      `json:"minItems,omitempty"`
	Default       any      `json:"default,omitempty"`
	OneOf         []string `json:"oneOf,omitempty"`
	EnumType      string   `json:"enumType,omitempty"` // an aws-sdk-go-v2 enum whose values were not resolved
	ConflictsWith []string `json:"conflictsWith,omitempty"`
	ExactlyOneOf  []string `json:"exactlyOneOf,omitempty"`
	AtLeastOneOf  []string `json:"atLeastOneOf,omitempty"`
	RequiredWith  []string `json:"requiredWith,omitempty"`
}

// Resource is one type's properties.
type Resource struct {
	Terraform  string               `json:"terraform"`
	Properties map[string]*Property `json:"properties"`
	// NotInSDK are the Terraform attributes of this source that the
	// Pulumi SDK's version does not have (newer than what it bridges):
	// left out.
	NotInSDK []string `json:"notInSDK,omitempty"`
}

// Output is the file the simulated AWS reads.
type Output struct {
	Source  string `json:"source"`
	Commit  string `json:"commit"`
	Command string `json:"command"`
	// DerivedNames are the names constants the sources use that the
	// names file lacks, with the value derived from their Go name.
	DerivedNames map[string]string `json:"derivedNames,omitempty"`
	// Files are each source file's commit, when not all are Commit's.
	Files     map[string]string   `json:"files,omitempty"`
	Resources map[string]Resource `json:"resources"`
}

func main() {
	src := flag.String("src", "", "directory holding the provider's sources under their repository paths (required)")
	commit := flag.String("commit", "", "the provider commit the sources are from (recorded)")
	commits := flag.String("commits", "", "a TSV file of each source file's commit when they differ (path first, commit last; # comments)")
	keep := flag.String("keep", "", "a previous output whose resources are kept when DIR lacks their source file")
	flag.Parse()
	if *src == "" {
		fmt.Fprintln(os.Stderr, "tfconstraints: -src DIR is required")
		os.Exit(2)
	}
	out, err := extract(*src, *commit, *commits, *keep)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tfconstraints:", err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type extractor struct {
	imports map[string]string   // the current file's imports: name -> path
	names   map[string]string   // names.AttrX -> "x"
	derived map[string]string   // names constants missing from the names file, derived (snake)
	enums   map[string][]string // aws-sdk-go-v2 service/type -> values
	tags    map[string]bool     // Pulumi SDK field tags of the current resource
	// sdkRequired are the current resource's top-level inputs the SDK
	// requires (the others Terraform requires are auto-named).
	sdkRequired map[string]bool
	errs        []string // the current resource's attributes not in the SDK
	// vars are the current file's package-level variables' values: a
	// schema several attributes share (a security group's ingress and
	// egress rules) is declared once as one.
	vars map[string]ast.Expr
}

func extract(src, commit, commits, keep string) (*Output, error) {
	x := &extractor{names: map[string]string{}, enums: map[string][]string{}, derived: map[string]string{}}
	if err := x.loadNames(filepath.Join(src, "names", "attr_consts_gen.go")); err != nil {
		return nil, err
	}
	sdk, err := moduleDir("github.com/pulumi/pulumi-aws/sdk/v6")
	if err != nil {
		return nil, err
	}
	out := &Output{
		Source:    "github.com/hashicorp/terraform-provider-aws (SDKv2 resource schemas), names checked against github.com/pulumi/pulumi-aws/sdk/v6 " + filepath.Base(sdk),
		Commit:    commit,
		Command:   "go run ./tools/tfconstraints -src DIR -commit " + commit,
		Resources: map[string]Resource{},
	}
	if commits != "" {
		out.Command += " -commits FILE"
		b, err := os.ReadFile(commits)
		if err != nil {
			return nil, err
		}
		out.Files = map[string]string{}
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Split(line, "\t")
			if len(f) < 2 || strings.HasPrefix(line, "#") {
				continue
			}
			out.Files[f[0]] = f[len(f)-1]
		}
	}
	var kept *Output
	if keep != "" {
		out.Command += " -keep " + keep
		b, err := os.ReadFile(keep)
		if err != nil {
			return nil, err
		}
		kept = &Output{}
		if err := json.Unmarshal(b, kept); err != nil {
			return nil, fmt.Errorf("%s: %w", keep, err)
		}
	}
	for _, r := range resources {
		if _, err := os.Stat(filepath.Join(src, r.file)); kept != nil && os.IsNotExist(err) {
			res, ok := kept.Resources[r.token]
			if !ok {
				return nil, fmt.Errorf("%s: not under %s, nor in %s", r.file, src, keep)
			}
			out.Resources[r.token] = res
			if c, ok := kept.Files[r.file]; ok && out.Files != nil {
				if _, listed := out.Files[r.file]; !listed {
					out.Files[r.file] = c
				}
			}
			continue
		}
		x.tags, err = sdkTags(filepath.Join(sdk, "go", "aws", r.sdk))
		if err != nil {
			return nil, err
		}
		if x.sdkRequired, err = sdkRequired(filepath.Join(sdk, "go", "aws", r.sdk)); err != nil {
			return nil, err
		}
		x.errs = nil
		props, err := x.resource(filepath.Join(src, r.file), r.tf, r.fn)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.file, err)
		}
		sort.Strings(x.errs)
		out.Resources[r.token] = Resource{Terraform: r.tf, Properties: props, NotInSDK: x.errs}
	}
	if kept != nil {
		for k, v := range kept.DerivedNames {
			if _, ok := x.derived[k]; !ok {
				x.derived[k] = v
			}
		}
	}
	if len(x.derived) > 0 {
		out.DerivedNames = x.derived
	}
	return out, nil
}

// moduleDir is where the Go module cache holds the project's version of a
// module.
func moduleDir(mod string) (string, error) {
	b, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	if err != nil {
		return "", fmt.Errorf("go list -m %s: %w", mod, err)
	}
	return strings.TrimSpace(string(b)), nil
}

var tagRe = regexp.MustCompile("`pulumi:\"([A-Za-z0-9]+)\"`")

// sdkTags are every Pulumi property name in a Pulumi Go SDK resource file
// (its args, state and nested types).
func sdkTags(file string) (map[string]bool, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	tags := map[string]bool{}
	for _, m := range tagRe.FindAllSubmatch(b, -1) {
		tags[string(m[1])] = true
	}
	// Nested types live in the package's pulumiTypes*.go files.
	more, _ := filepath.Glob(filepath.Join(filepath.Dir(file), "pulumiTypes*.go"))
	for _, f := range more {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, m := range tagRe.FindAllSubmatch(b, -1) {
			tags[string(m[1])] = true
		}
	}
	return tags, nil
}

var requiredRe = regexp.MustCompile(`invalid value for required argument '([A-Za-z0-9]+)'`)

// sdkRequired are the top-level inputs a Pulumi Go SDK constructor
// refuses to go without; an input Terraform requires that is not among
// them is one the bridge names itself (auto-naming), so not required.
func sdkRequired(file string) (map[string]bool, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, m := range requiredRe.FindAllSubmatch(b, -1) {
		n := string(m[1])
		out[strings.ToLower(n[:1])+n[1:]] = true
	}
	return out, nil
}

func (x *extractor) loadNames(file string) error {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		return err
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			for i, n := range v.Names {
				if i < len(v.Values) {
					if lit, ok := v.Values[i].(*ast.BasicLit); ok {
						x.names[n.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
	}
	return nil
}

// resource finds the function annotated @SDKResource("tf") and reads the
// schema of the schema.Resource it returns.
func (x *extractor) resource(file, tf, fnName string) (map[string]*Property, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	x.imports = map[string]string{}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := filepath.Base(path)
		if im.Name != nil {
			name = im.Name.Name
		}
		x.imports[name] = path
	}
	x.vars = map[string]ast.Expr{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				for i, n := range v.Names {
					if i < len(v.Values) {
						x.vars[n.Name] = v.Values[i]
					}
				}
			}
		}
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		annotated := fn.Doc != nil && strings.Contains(fn.Doc.Text(), `@SDKResource("`+tf+`"`)
		if !annotated && (fnName == "" || (fn.Name.Name != "Resource"+fnName && fn.Name.Name != "resource"+fnName)) {
			continue
		}
		var res *ast.CompositeLit
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CompositeLit); ok && res == nil && isSel(c.Type, "schema", "Resource") {
				res = c
				return false
			}
			return true
		})
		if res == nil {
			return nil, fmt.Errorf("%s returns no schema.Resource literal", fn.Name.Name)
		}
		schemaMap := x.schemaOf(res)
		if schemaMap == nil {
			return nil, fmt.Errorf("%s: no Schema map literal", fn.Name.Name)
		}
		props := map[string]*Property{}
		x.walk(schemaMap, "", "", props)
		return props, nil
	}
	return nil, fmt.Errorf("no function annotated @SDKResource(%q)", tf)
}

// schemaOf is the map literal of a schema.Resource's Schema (or the one its
// SchemaFunc returns).
func (x *extractor) schemaOf(res *ast.CompositeLit) *ast.CompositeLit {
	for _, e := range res.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		switch key := kv.Key.(*ast.Ident); {
		case key != nil && key.Name == "Schema":
			if c, ok := kv.Value.(*ast.CompositeLit); ok {
				return c
			}
		case key != nil && key.Name == "SchemaFunc":
			var found *ast.CompositeLit
			ast.Inspect(kv.Value, func(n ast.Node) bool {
				if r, ok := n.(*ast.ReturnStmt); ok && found == nil && len(r.Results) == 1 {
					found, _ = r.Results[0].(*ast.CompositeLit)
				}
				return found == nil
			})
			return found
		}
	}
	return nil
}

// shared is the value of the file's package-level variable e names (a
// shared schema), or e itself.
func (x *extractor) shared(e ast.Expr) ast.Expr {
	if id, ok := e.(*ast.Ident); ok {
		if v, ok := x.vars[id.Name]; ok {
			return v
		}
	}
	return e
}

func isSel(e ast.Expr, pkg, name string) bool {
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = u.X
	}
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := s.X.(*ast.Ident)
	return ok && id.Name == pkg && s.Sel.Name == name
}

// walk records every attribute of a schema map literal under prefix
// (Pulumi path) and tfPrefix (Terraform path).
func (x *extractor) walk(m *ast.CompositeLit, prefix, tfPrefix string, props map[string]*Property) {
	for _, e := range m.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		tfName := x.str(kv.Key)
		if tfName == "" {
			continue
		}
		value := kv.Value
		if v, ok := x.shared(value).(*ast.UnaryExpr); ok && v != value {
			if c, ok := v.X.(*ast.CompositeLit); ok && isSel(c.Type, "schema", "Schema") {
				value = c // a shared &schema.Schema{...}
			}
		}
		lit, ok := value.(*ast.CompositeLit)
		if !ok {
			continue // tags and other shared schemas: not constrained here
		}
		p := &Property{}
		var elem *ast.CompositeLit
		typ := ""
		for _, f := range lit.Elts {
			fkv, ok := f.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			switch fkv.Key.(*ast.Ident).Name {
			case "Type":
				if s, ok := fkv.Value.(*ast.SelectorExpr); ok {
					typ = s.Sel.Name
				}
			case "Required":
				p.Required = isTrue(fkv.Value)
			case "Computed":
				p.Computed = isTrue(fkv.Value)
			case "ForceNew":
				p.ForceNew = isTrue(fkv.Value)
			case "MaxItems":
				p.MaxItems = intOf(fkv.Value)
			case "MinItems":
				p.MinItems = intOf(fkv.Value)
			case "Default":
				p.Default = x.value(fkv.Value)
			case "ConflictsWith":
				p.ConflictsWith = x.strings(fkv.Value)
			case "ExactlyOneOf":
				p.ExactlyOneOf = x.strings(fkv.Value)
			case "AtLeastOneOf":
				p.AtLeastOneOf = x.strings(fkv.Value)
			case "RequiredWith":
				p.RequiredWith = x.strings(fkv.Value)
			case "ValidateFunc", "ValidateDiagFunc":
				x.validation(fkv.Value, p)
			case "Elem":
				switch v := x.shared(fkv.Value).(type) {
				case *ast.UnaryExpr:
					if c, ok := v.X.(*ast.CompositeLit); ok && isSel(c.Type, "schema", "Resource") {
						elem = x.schemaOf(c)
					} else if ok && isSel(c.Type, "schema", "Schema") {
						// A list of scalars: its validation is the list's.
						for _, g := range c.Elts {
							if gkv, ok := g.(*ast.KeyValueExpr); ok {
								if n := gkv.Key.(*ast.Ident).Name; n == "ValidateFunc" || n == "ValidateDiagFunc" {
									x.validation(gkv.Value, p)
								}
							}
						}
					}
				}
			}
		}
		p.List = typ == "TypeList" || typ == "TypeSet"
		name := pulumiName(tfName, p.List && p.MaxItems != 1)
		if !x.tags[name] {
			x.errs = append(x.errs, tfPrefix+tfName)
			continue
		}
		if !p.Required && !p.ForceNew && p.Default == nil && len(p.OneOf) == 0 && len(p.ConflictsWith)+len(p.ExactlyOneOf)+len(p.AtLeastOneOf)+len(p.RequiredWith) == 0 && p.MaxItems == 0 && p.MinItems == 0 && elem == nil {
			// Nothing to enforce; computed-only outputs are kept so the
			// simulation knows them.
			if !p.Computed {
				continue
			}
		}
		if p.Required && prefix == "" && !x.sdkRequired[name] {
			p.Required, p.AutoNamed = false, true
		}
		props[prefix+name] = p
		if elem != nil {
			x.walk(elem, prefix+name+".", tfPrefix+tfName+".0.", props)
		}
	}
}

// pulumiName is the bridge's name for a Terraform attribute: camelCase,
// and a list or set that is not a single object pluralised.
func pulumiName(tf string, plural bool) string {
	parts := strings.Split(tf, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	n := strings.Join(parts, "")
	if plural && !strings.HasSuffix(n, "s") {
		if strings.HasSuffix(n, "y") && !strings.HasSuffix(n, "ey") {
			return n[:len(n)-1] + "ies"
		}
		return n + "s"
	}
	return n
}

func (x *extractor) str(e ast.Expr) string {
	switch v := e.(type) {
	case *ast.BasicLit:
		s, _ := strconv.Unquote(v.Value)
		return s
	case *ast.SelectorExpr:
		if id, ok := v.X.(*ast.Ident); ok && id.Name == "names" {
			if n, ok := x.names[v.Sel.Name]; ok {
				return n
			}
			// A constant newer than the names file: its name says its
			// value (AttrSubnetIDs is "subnet_ids").
			n := snake(strings.TrimPrefix(v.Sel.Name, "Attr"))
			x.derived[v.Sel.Name] = n
			return n
		}
	}
	return ""
}

// snake is a generated names constant's value from its Go name: its
// words, an initialism one word (AttrVPCID is "vpc_id").
func snake(name string) string {
	var words []string
	for name != "" {
		word := ""
		for _, in := range initialisms {
			if strings.HasPrefix(name, in) && (len(name) == len(in) || name[len(in)] < 'a' || name[len(in)] > 'z') {
				word = in
				break
			}
		}
		if word == "" {
			i := 1
			for i < len(name) && (name[i] < 'A' || name[i] > 'Z') {
				i++
			}
			word = name[:i]
		}
		words = append(words, strings.ToLower(word))
		name = name[len(word):]
	}
	return strings.Join(words, "_")
}

// initialisms the names generator writes in capitals, longest first.
var initialisms = []string{"CIDRs", "CIDR", "ARNs", "ARN", "IDs", "ID", "VPC", "KMS", "IAM", "DNS", "IPv6", "IPv4", "IP", "AWS", "EKS", "OIDC", "URL", "SSH", "AMI"}

func (x *extractor) strings(e ast.Expr) []string {
	c, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil
	}
	var out []string
	for _, el := range c.Elts {
		if s := x.str(el); s != "" {
			out = append(out, tfPath(s))
		}
	}
	return out
}

// tfPath turns a Terraform attribute path (a.0.b) into a Pulumi one (a.b).
func tfPath(s string) string {
	var parts []string
	for _, p := range strings.Split(s, ".") {
		if _, err := strconv.Atoi(p); err == nil {
			continue
		}
		parts = append(parts, pulumiName(p, false))
	}
	return strings.Join(parts, ".")
}

func (x *extractor) value(e ast.Expr) any {
	switch v := e.(type) {
	case *ast.Ident:
		if v.Name == "true" || v.Name == "false" {
			return v.Name == "true"
		}
	case *ast.BasicLit:
		if v.Kind == token.INT {
			n, _ := strconv.Atoi(v.Value)
			return n
		}
		return x.str(v)
	case *ast.SelectorExpr:
		if s := x.str(v); s != "" {
			return s
		}
	}
	return nil // not a literal: not recorded
}

// validation reads the allowed values of validation.StringInSlice with a
// literal list, and of enum.Validate[types.T]() (T's values from
// aws-sdk-go-v2, when that service's module is in the module cache).
func (x *extractor) validation(e ast.Expr, p *Property) {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return
	}
	if isSel(call.Fun, "validation", "All") {
		for _, a := range call.Args {
			x.validation(a, p)
		}
		return
	}
	if isSel(call.Fun, "validation", "StringInSlice") && len(call.Args) > 0 {
		if sl, ok := call.Args[0].(*ast.CallExpr); ok && isSel(sl.Fun, "enum", "Slice") {
			// enum.Slice(types.XNone, types.XOverwrite): the constants'
			// values, from aws-sdk-go-v2's enums.go.
			var vals []string
			for _, a := range sl.Args {
				s, ok := a.(*ast.SelectorExpr)
				if !ok {
					return
				}
				pkg := x.imports[s.X.(*ast.Ident).Name]
				v, ok := x.enumConsts(pkg)[s.Sel.Name]
				if !ok {
					return
				}
				vals = append(vals, v)
			}
			p.OneOf = vals
			return
		}
		if vals := x.strings(call.Args[0]); vals != nil {
			p.OneOf = nil
			for _, el := range call.Args[0].(*ast.CompositeLit).Elts {
				p.OneOf = append(p.OneOf, x.str(el))
			}
		}
		return
	}
	if idx, ok := call.Fun.(*ast.IndexExpr); ok && isSel(idx.X, "enum", "Validate") {
		if s, ok := idx.Index.(*ast.SelectorExpr); ok {
			pkg := x.imports[s.X.(*ast.Ident).Name]
			if vals := x.enumValues(pkg, s.Sel.Name); vals != nil {
				p.OneOf = vals
			} else {
				p.EnumType = pkg + "." + s.Sel.Name
			}
		}
	}
}

// enumValues are the values an aws-sdk-go-v2 enum type's Values method
// returns, read from its types/enums.go in the module cache; nil when
// the service's module is not in this project's build list.
func (x *extractor) enumValues(pkg, typ string) []string {
	key := pkg + "." + typ
	if v, ok := x.enums[key]; ok {
		return v
	}
	x.enums[key] = nil
	f := x.enumsFile(pkg)
	if f == nil {
		return nil
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "Values" || fn.Recv == nil {
			continue
		}
		if id, ok := fn.Recv.List[0].Type.(*ast.Ident); !ok || id.Name != typ {
			continue
		}
		var vals []string
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				vals = append(vals, s)
			}
			return true
		})
		x.enums[key] = vals
		return vals
	}
	return nil
}

// enumConsts are the string constants of an aws-sdk-go-v2 types package
// (ResolveConflictsNone is "NONE"), from its types/enums.go.
func (x *extractor) enumConsts(pkg string) map[string]string {
	consts := map[string]string{}
	f := x.enumsFile(pkg)
	if f == nil {
		return consts
	}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, sp := range g.Specs {
				v := sp.(*ast.ValueSpec)
				for i, n := range v.Names {
					if i < len(v.Values) {
						if lit, ok := v.Values[i].(*ast.BasicLit); ok {
							consts[n.Name], _ = strconv.Unquote(lit.Value)
						}
					}
				}
			}
		}
	}
	return consts
}

// enumsFile is the parsed types/enums.go of an aws-sdk-go-v2 types
// package in the module cache (nil: not in the build list).
func (x *extractor) enumsFile(pkg string) *ast.File {
	dir, err := moduleDir(strings.TrimSuffix(pkg, "/types"))
	if err != nil || dir == "" {
		return nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, "types", "enums.go"), nil, 0)
	if err != nil {
		return nil
	}
	return f
}

func isTrue(e ast.Expr) bool { id, ok := e.(*ast.Ident); return ok && id.Name == "true" }

func intOf(e ast.Expr) int {
	if b, ok := e.(*ast.BasicLit); ok {
		n, _ := strconv.Atoi(b.Value)
		return n
	}
	return 0
}
