package plan

import (
	"encoding/json"
	"strings"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/ident"
)

// PrometheusConnector reads an environment's metrics; monitored services'
// health sources query it.
type PrometheusConnector struct {
	Identifier, Name, Description string
	URL                           string
	Tags                          []string
	Needs                         []Ref
}

// MonitoredService is a Harness service in one environment, with the
// health source its Verify steps analyse. A Verify step whose monitored
// service is "Default" uses the one of its stage's service and
// environment; without one, Harness skips the step and verifies nothing.
// https://developer.harness.io/docs/continuous-delivery/verify/configure-cv/verify-deployments
type MonitoredService struct {
	Identifier, Name, Description string
	ServiceRef, EnvironmentRef    string
	Type                          string // Application
	HealthSource                  HealthSource
	Tags                          []string
	Needs                         []Ref
}

// HealthSource is a Prometheus health source; Spec is its JSON, as the
// provider sends it.
type HealthSource struct {
	Identifier, Name, Type string
	Spec                   string
}

// The health source spec, in the fields of the Harness API's
// PrometheusHealthSourceSpec and PrometheusMetricDefinition (the
// terraform provider reads connectorRef and metricDefinitions from it).
type prometheusSpec struct {
	ConnectorRef      string             `json:"connectorRef"`
	MetricDefinitions []prometheusMetric `json:"metricDefinitions"`
}

type prometheusMetric struct {
	Identifier               string      `json:"identifier"`
	MetricName               string      `json:"metricName"`
	GroupName                string      `json:"groupName"`
	Query                    string      `json:"query"`
	IsManualQuery            bool        `json:"isManualQuery"`
	ServiceInstanceFieldName string      `json:"serviceInstanceFieldName"`
	RiskProfile              riskProfile `json:"riskProfile"`
	Analysis                 analysis    `json:"analysis"`
	SLI                      enabled     `json:"sli"`
}

type riskProfile struct {
	RiskCategory   string   `json:"riskCategory"`
	ThresholdTypes []string `json:"thresholdTypes"`
}

type analysis struct {
	LiveMonitoring         enabled                `json:"liveMonitoring"`
	DeploymentVerification deploymentVerification `json:"deploymentVerification"`
	RiskProfile            riskProfile            `json:"riskProfile"`
}

type deploymentVerification struct {
	Enabled                  bool   `json:"enabled"`
	ServiceInstanceFieldName string `json:"serviceInstanceFieldName"`
}

type enabled struct {
	Enabled bool `json:"enabled"`
}

// serviceInstanceLabel is the label that tells one pod's series from
// another's, which canary analysis compares; validation holds every query
// to keep it.
const serviceInstanceLabel = catalog.InstanceLabel

// prometheusConnector is the environment's connector, or nil when the
// stack has no verification settings.
func prometheusConnector(st *catalog.Stack, scope Scope, tags []string) *PrometheusConnector {
	v := st.Verification
	if v == nil {
		return nil
	}
	return &PrometheusConnector{
		Identifier:  ident.PrometheusConnector(st.Environment.Identifier),
		Name:        "prometheus-" + st.Environment.Name,
		Description: "Metrics of " + st.Environment.Name + ", the health source of its monitored services",
		URL:         v.PrometheusURL,
		Tags:        tags,
		Needs:       []Ref{{KindProject, scope.ProjectID}},
	}
}

// monitoredService is d's monitored service, or nil when its service does
// not verify. The archetype's queries are templated with the service's
// name and a regular expression matching its namespaces in the
// environment (one per region).
func monitoredService(d *deploymentInput, conn *PrometheusConnector) (*MonitoredService, error) {
	s, st := d.svc, d.stack
	if !s.Verification || conn == nil {
		return nil, nil
	}
	q := st.Verification.Queries[s.Archetype]
	pattern := strings.Join(d.names.namespaces, "|")
	fill := func(query string) string {
		return strings.ReplaceAll(strings.ReplaceAll(query, "{{service}}", s.Name), "{{namespace}}", pattern)
	}
	metric := func(id, name, query, category string) prometheusMetric {
		risk := riskProfile{RiskCategory: category, ThresholdTypes: []string{"ACT_WHEN_HIGHER"}}
		return prometheusMetric{
			Identifier: id, MetricName: name, GroupName: s.Name, Query: fill(query), IsManualQuery: true,
			ServiceInstanceFieldName: serviceInstanceLabel, RiskProfile: risk,
			Analysis: analysis{
				LiveMonitoring:         enabled{true},
				DeploymentVerification: deploymentVerification{Enabled: true, ServiceInstanceFieldName: serviceInstanceLabel},
				RiskProfile:            risk,
			},
		}
	}
	spec, err := json.Marshal(prometheusSpec{ConnectorRef: conn.Identifier, MetricDefinitions: []prometheusMetric{
		metric("error_rate", "Error rate", q.ErrorRate, "Errors"),
		metric("latency", "Latency", q.Latency, "Performance_ResponseTime"),
	}})
	if err != nil {
		return nil, err
	}
	svcID, envID := d.names.service, st.Environment.Identifier
	return &MonitoredService{
		Identifier:     d.names.monitored,
		Name:           s.Name + "-" + st.Environment.Name,
		Description:    "Error rate and latency of " + s.Name + " in " + st.Environment.Name + ", for its Verify steps",
		ServiceRef:     svcID,
		EnvironmentRef: envID,
		Type:           "Application",
		HealthSource:   HealthSource{Identifier: "prometheus", Name: "Prometheus", Type: "Prometheus", Spec: string(spec)},
		Tags:           d.names.tags,
		Needs:          []Ref{{KindService, svcID}, {KindEnvironment, envID}, {KindPrometheusConnector, conn.Identifier}},
	}, nil
}
