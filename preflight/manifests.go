package preflight

import (
	"fmt"
	"regexp"
	"strings"
)

// A manifest conforms to the manifests contract when Harness's Values
// file decides its image: it takes the image as {{.Values.image}} (Go
// templating of a K8sManifest with its Values files: developer.harness.io,
// "Add Kubernetes manifests"; the service's Values file holds image:
// <+artifacts.primary.image>, the run's image and tag), and it does not
// name the service's image repository itself, which would deploy that
// tag whatever the run was given. Other images (sidecars, init
// containers of other repositories) are the manifest's own.

// valuesImage is a template action that reads .Values.image (with or
// without trim markers, spaces and pipes: {{- .Values.image | quote }}).
var valuesImage = regexp.MustCompile(`\{\{-?\s*\.Values\.image(\s*\|[^}]*)?\s*-?\}\}`)

// imageField is a YAML image field (a container's, or a list item's).
var imageField = regexp.MustCompile(`(?m)^\s*(?:-\s+)?image:\s*(.*?)\s*$`)

// manifestProblem says how content, the manifest of a service whose image
// repository is image, breaks the contract; "" when it keeps it.
func manifestProblem(content []byte, image string) string {
	text := string(content)
	var literal []string
	for _, m := range imageField.FindAllStringSubmatch(text, -1) {
		v := strings.Trim(m[1], `"'`)
		if strings.Contains(v, "{{") {
			continue
		}
		if v == image || strings.HasPrefix(v, image+":") || strings.HasPrefix(v, image+"@") {
			literal = append(literal, v)
		}
	}
	switch {
	case len(literal) > 0:
		return fmt.Sprintf("it names the service's image itself (image: %s): it deploys that, whatever image and tag the run was given", strings.Join(literal, ", image: "))
	case !valuesImage.MatchString(text):
		return "it does not take its image from the Values file ({{.Values.image}}): the run's image and tag never reach it"
	}
	return ""
}
