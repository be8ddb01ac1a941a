package pipeline

import (
	"fmt"

	"github.com/company/harness-platform/catalog"
)

// Webhook payload keys the trigger reads.
const (
	PayloadServiceName  = "service_name"
	PayloadImageTag     = "image_tag"
	PayloadTargetRegion = "target_region"
)

// BuildTrigger returns the custom webhook trigger of d's pipeline: a call
// whose payload names the service starts the pipeline with the payload's
// image tag and region. A retired service's trigger is disabled.
func BuildTrigger(d catalog.Deployment, refs Refs) (TriggerDocument, error) {
	pipelineID := catalog.PipelineIdentifier(d.Service, d.Stack)
	inputs, err := Marshal(InputSetDocument{Pipeline: RuntimeInputs{
		Identifier: pipelineID,
		Variables: []InputValue{
			{Name: ImageTagInput, Type: "String", Value: "<+trigger.payload." + PayloadImageTag + ">"},
			{Name: TargetRegionInput, Type: "String", Value: "<+trigger.payload." + PayloadTargetRegion + ">"},
		},
	}})
	if err != nil {
		return TriggerDocument{}, err
	}
	return TriggerDocument{Trigger: Trigger{
		Name:               PipelineName(d) + "-webhook",
		Identifier:         catalog.TriggerIdentifier(d.Service, d.Stack),
		Enabled:            !d.Service.Retired,
		Description:        fmt.Sprintf("Starts %s when a build of %s calls the webhook with %s, %s and %s.", PipelineName(d), d.Service.Name, PayloadServiceName, PayloadImageTag, PayloadTargetRegion),
		Tags:               Tags(d),
		OrgIdentifier:      refs.OrgID,
		ProjectIdentifier:  refs.ProjectID,
		PipelineIdentifier: pipelineID,
		Source: TriggerSource{Type: "Webhook", Spec: WebhookSource{Type: "Custom", Spec: CustomWebhook{
			PayloadConditions: []Condition{
				{Key: "<+trigger.payload." + PayloadServiceName + ">", Operator: "Equals", Value: d.Service.Name},
			},
			HeaderConditions: []Condition{},
		}}},
		InputYaml: string(inputs),
	}}, nil
}
