package offline

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/company/harness-platform/catalog"
	"github.com/company/harness-platform/yamlstrict"
)

// Charts serves a Helm repository directory (index.yaml and the chart
// archives it lists) over HTTPS on loopback, for the real Kubernetes
// plugin's Helm releases offline: stack files require an https chart
// repository, so the server's certificate is written to a file that the
// plugins trust through SSL_CERT_FILE (Go's system roots on Linux).
type Charts struct {
	srv      *http.Server
	url      string
	certFile string
}

// ServeCharts serves dir; its certificate is written in tmp. Close it.
func ServeCharts(dir, tmp string) (*Charts, error) {
	if _, err := os.Stat(filepath.Join(dir, "index.yaml")); err != nil {
		return nil, fmt.Errorf("%s is not a Helm repository (no index.yaml): %w", dir, err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	certFile := filepath.Join(tmp, "chart-repo-ca.pem")
	if err := os.WriteFile(certFile, certPEM, 0o600); err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	cert, err := tls.X509KeyPair(certPEM, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}))
	if err != nil {
		return nil, err
	}
	lis, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		return nil, err
	}
	r := &Charts{srv: &http.Server{Handler: http.FileServer(http.Dir(dir))}, url: "https://" + lis.Addr().String() + "/", certFile: certFile}
	go func() { _ = r.srv.Serve(lis) }()
	return r, nil
}

// URL is the repository's address; CertFile, the certificate a client
// trusts it by (SSL_CERT_FILE).
func (r *Charts) URL() string      { return r.url }
func (r *Charts) CertFile() string { return r.certFile }

// Close stops serving.
func (r *Charts) Close() { _ = r.srv.Close() }

// WithChartRepository is the catalog with every stack's delegate chart
// repository set to url (its files rewritten and resolved again).
func WithChartRepository(c *catalog.Catalog, url string) (*catalog.Catalog, error) {
	files := catalog.Files{}
	for name, data := range c.Files() {
		files[name] = data
	}
	for _, env := range c.Chain {
		name := "Pulumi." + env + ".yaml"
		data, ok := files[name]
		if !ok {
			continue
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return nil, err
		}
		if !setDelegateChartRepository(&doc, url) {
			continue // no delegate in this stack
		}
		out, err := yaml.Marshal(&doc)
		if err != nil {
			return nil, err
		}
		files[name] = out
	}
	return catalog.Parse(files)
}

// setDelegateChartRepository sets config.harness-platform:delegate's
// chartRepository, reporting whether the stack file has a delegate.
func setDelegateChartRepository(doc *yaml.Node, url string) bool {
	if len(doc.Content) == 0 {
		return false
	}
	config := yamlstrict.Value(doc.Content[0], "config")
	delegate := yamlstrict.Value(config, catalog.Namespace+":delegate")
	if delegate == nil || delegate.Kind != yaml.MappingNode {
		return false
	}
	if v := yamlstrict.Value(delegate, "chartRepository"); v != nil {
		v.Value = url
		return true
	}
	delegate.Content = append(delegate.Content,
		&yaml.Node{Kind: yaml.ScalarNode, Value: "chartRepository"}, &yaml.Node{Kind: yaml.ScalarNode, Value: url})
	return true
}
