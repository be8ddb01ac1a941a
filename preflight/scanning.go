package preflight

import (
	"context"
	"fmt"
	"strings"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/plan"
)

// ScanAccount is what a Harness account holds for the image scan gate of
// Production deploy stages (docs/delivery.md, The image scan gate).
type ScanAccount struct {
	// Licence is the status of the account's licence of the scanning
	// module (ModuleLicenseDTO status: ACTIVE, EXPIRED, DELETED; an
	// ACTIVE one past its expiryTime is EXPIRED); "" when it has none.
	Licence string
	// Missing are the asked secrets the project does not hold.
	Missing []string
}

// ImageScanNeeds are what an environment's Production image scans need
// of the account: the module licence that runs their STO step, and the
// project's secrets they read (the Wiz service account's, made by hand,
// and the registry's password).
type ImageScanNeeds struct {
	Module  string
	Secrets []string
	// File is the catalog file whose archetypes set the scans.
	File string
}

// imageScanNeeds are st's, nil outside Production: only Production deploy
// stages scan.
func imageScanNeeds(c *catalog.Catalog, st *catalog.Stack) *ImageScanNeeds {
	if !st.IsProduction() || c.Root().Foundation == nil {
		return nil
	}
	return &ImageScanNeeds{Module: plan.ScanLicenceModule, Secrets: plan.ImageScanSecrets(c.Root().Foundation.Registry), File: catalog.ArchetypesFile}
}

// checkImageScan asks Harness whether the account may run the image scan
// and holds what it reads: without the module's licence Harness does not
// run the STO step, and without a secret the step fails to resolve it;
// either way no Production deployment passes its scan.
func checkImageScan(ctx context.Context, svc Services, r Requirements) []Problem {
	n := r.ImageScan
	if n == nil {
		return nil
	}
	check := fmt.Sprintf("Harness account %s for the image scan of %s's deployments", r.Account, r.Environment)
	a, err := svc.ImageScanAccount(ctx, r.Account, r.Org, r.Project, n.Secrets)
	if err != nil {
		return []Problem{{Check: check, Err: err, Fix: "give the Harness key view access to the account's subscriptions and to the project's secrets (Account Viewer)"}}
	}
	var out []Problem
	if a.Licence != "ACTIVE" {
		status := a.Licence
		if status == "" {
			status = "none"
		}
		out = append(out, Problem{Check: check,
			Err: fmt.Errorf("the account's %s (Security Testing Orchestration) licence is %s: Harness runs no STO step without it, so every Production deployment would stop at its image scan", n.Module, status),
			Fix: "subscribe the account to STO (Account Settings > Subscriptions): the Wiz scanner step Production deploy stages run is an STO step"})
	}
	if len(a.Missing) > 0 {
		out = append(out, Problem{Check: check,
			Err: fmt.Errorf("project %s/%s has no secret %s: the Wiz step of every Production deployment reads it, and fails", r.Org, r.Project, strings.Join(a.Missing, ", ")),
			Fix: fmt.Sprintf("create them in the project as text secrets: %s and %s hold the client ID and secret of a Wiz service account that may scan container images (Wiz: Settings > Service Accounts); %s the Docker registry's password, which the foundation stack declares",
				plan.WizClientIDSecret, plan.WizClientSecretSecret, plan.RegistryPasswordID)})
	}
	return out
}
