// Package backstage generates the platform's Backstage software templates
// from the catalog, and its tests check them with Backstage's own packages.
//
//   - templates/onboard-service/template.yaml onboards a service: its form
//     is generated from the catalog's JSON Schema of a service entry
//     (catalog/schema/services.schema.json) with the choices the catalog
//     files give (teams, archetypes, environments, regions), and its steps
//     fetch catalog/services.yaml from this repository, append the entry
//     the form describes and open a pull request whose preview check
//     (platformctl validate, then the previews) validates it.
//   - templates/deploy-service/template.yaml is the service page's
//     "Deploy to an environment": it runs the service's pipeline of the
//     chosen environment through Harness's API with the pipeline's runtime
//     inputs (imageTag, targetRegion) and links to the run.
//
// Templates writes both; `go test ./backstage -update` rewrites the
// committed files, and the test fails while they are stale. check/ holds
// the Node check the tests run: the scaffolder's template validator
// (@backstage/plugin-scaffolder-common), the catalog's entity policies and
// kind validators (@backstage/catalog-model) and the scaffolder's template
// engine (nunjitsu), pinned by check/package-lock.json. README.md says
// what a Backstage instance must install and configure to run them.
package backstage
