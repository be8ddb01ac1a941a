package plan

import (
	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/harness/document"
)

// The image scan gate (docs/delivery.md, The image scan gate). Before
// anyone approves it and before the rollout, a Production deploy stage
// scans the very image the stage deploys, the service's primary
// artifact as the run resolved it (<+artifacts.primary.imagePath> at
// <+artifacts.primary.tag>), and stops the run when the scan finds an
// issue at the archetype's severity or higher.
//
// The scan is a Harness STO Wiz step in orchestration mode, in a
// containerized step group: of the STO steps Harness's pipeline schema
// accepts in a Deployment stage, Custom Ingest and Wiz, only Wiz scans an
// image itself; Custom Ingest reads a file a Run step would have to
// write, and the pipeline rules refuse script steps in deploy stages.
// It scans the image from its registry, without Docker-in-Docker
// (docker_mode without-docker-in-docker), so no Background step and no
// privileged container either.
// https://developer.harness.io/docs/continuous-delivery/x-platform-cd-features/cd-steps/containerized-steps/wiz-artifact-scan
// https://developer.harness.io/docs/security-testing-orchestration/sto-techref-category/security-step-settings-reference
// https://developer.harness.io/docs/security-testing-orchestration/sto-techref-category/wiz/artifact-scans-with-wiz

// Identifiers, names and types of the gate.
const (
	ImageScanGroupID = "image_scan"
	ImageScanStepID  = "scan_image"
	// ImageScanStepType is the STO scanner step the gate runs.
	ImageScanStepType = "Wiz"
	// ImageScanTimeout bounds the scan (pulling the image and the Wiz
	// CLI's analysis): a scan that does not end in time fails the gate.
	ImageScanTimeout = "20m"
)

// The expressions of the image the stage deploys: the service's primary
// artifact as the run resolved it.
// https://developer.harness.io/docs/platform/variables-and-expressions/harness-variables
const (
	ScannedImagePath = "<+artifacts.primary.imagePath>"
	ScannedImageTag  = "<+artifacts.primary.tag>"
)

// The Harness secrets holding the Wiz service account's client ID and
// secret the Wiz CLI authenticates with, in the project (made by hand:
// Wiz issues them; preflight checks that they exist).
const (
	WizClientIDSecret     = "wiz_client_id"
	WizClientSecretSecret = "wiz_client_secret"
)

// ScanLicenceModule is the Harness module whose licence runs STO steps
// (preflight checks the account has it).
const ScanLicenceModule = "STO"

// ImageScanNamespace is where the scan's pod runs in each Production
// cluster (Delegate.ScanNamespace), not in the service's namespace: a
// service namespace enforces Pod Security restricted, which the step
// group's pod (no seccomp profile: Harness sets none) fails, and denies
// egress but DNS, where the Wiz CLI needs HTTPS to Wiz, the registry and
// Harness. Its own namespace enforces baseline, takes ingress from the
// delegate's namespace only, and sends DNS and HTTPS out.
const ImageScanNamespace = "harness-image-scan"

// ImageScanSecrets are the project's secrets the gate reads: Wiz's, and
// the registry's password where the registry needs one.
func ImageScanSecrets(reg catalog.Registry) []string {
	out := []string{WizClientIDSecret, WizClientSecretSecret}
	if reg.Username != "" {
		out = append(out, RegistryPasswordID)
	}
	return out
}

// secretExpr is the expression that reads a project secret.
func secretExpr(id string) string { return `<+secrets.getValue("` + id + `")>` }

// imageScanGroup is the gate of a Production deploy stage: a containerized
// step group whose pod runs in the cluster the stage deploys to (the
// infrastructure's Kubernetes connector), in its ImageScanNamespace, where
// the delegate may write, holding the Wiz step. The group aborts the run on any failure: a scan that finds an
// issue at the archetype's severity, or that cannot run, deploys nothing
// and has nothing to roll back.
func imageScanGroup(d *deploymentInput, reg catalog.Registry) document.StepElement {
	image := document.STOImage{Type: "docker_v2", Domain: reg.Host, Name: ScannedImagePath, Tag: ScannedImageTag}
	if reg.Username != "" {
		image.AccessID, image.AccessToken = reg.Username, secretExpr(RegistryPasswordID)
	}
	scan := step(ImageScanStepType, "Scan the image", ImageScanStepID, document.WizSpec{
		Mode:   "orchestration",
		Config: "default",
		Target: document.STOTarget{Type: "container", Detection: "manual", Name: ScannedImagePath, Variant: ScannedImageTag},
		Image:  image,
		Auth:   document.STOAuth{AccessID: secretExpr(WizClientIDSecret), AccessToken: secretExpr(WizClientSecretSecret)},
		// The Wiz CLI pulls the image from the registry itself: no
		// Docker-in-Docker Background step, no privileged container.
		Settings: map[string]string{"docker_mode": "without-docker-in-docker"},
		Advanced: document.STOAdvanced{FailOnSeverity: d.svc.FailOnSeverity, Log: document.STOLog{Level: "info"}},
	}, ImageScanTimeout)
	return document.StepElement{StepGroup: &document.StepGroup{
		Name:       "Image scan",
		Identifier: ImageScanGroupID,
		Steps:      []document.StepElement{scan},
		StepGroupInfra: &document.StepGroupInfra{Type: "KubernetesDirect", Spec: document.ContainerInfra{
			ConnectorRef: "<+infra.connectorRef>",
			Namespace:    ImageScanNamespace,
		}},
		FailureStrategies: []document.FailureStrategy{onFailure("Abort", "AllErrors")},
	}}
}

// registryOf is the foundation's registry (every catalog image is on it).
func registryOf(c *catalog.Catalog) catalog.Registry {
	if f := c.Root().Foundation; f != nil {
		return f.Registry
	}
	return catalog.Registry{}
}
