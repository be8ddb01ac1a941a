package engine

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
)

// chartRepo serves a Helm repository directory (index.yaml and the chart
// archives it lists) over HTTPS on loopback, for the real Kubernetes
// plugin's Helm releases offline: stack files require an https chart
// repository, so the server's certificate is written to a file that the
// plugins trust through SSL_CERT_FILE (Go's system roots on Linux).
type chartRepo struct {
	srv      *http.Server
	url      string
	certFile string
}

func startChartRepo(dir, tmp string) (*chartRepo, error) {
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
	r := &chartRepo{srv: &http.Server{Handler: http.FileServer(http.Dir(dir))}, url: "https://" + lis.Addr().String() + "/", certFile: certFile}
	go func() { _ = r.srv.Serve(lis) }()
	return r, nil
}

func (r *chartRepo) Close() { _ = r.srv.Close() }

// withChartRepository is the catalog with every stack's delegate chart
// repository set to url (its files rewritten and resolved again).
func withChartRepository(c *catalog.Catalog, url string) (*catalog.Catalog, error) {
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
	config := mapValue(doc.Content[0], "config")
	delegate := mapValue(config, catalog.Namespace+":delegate")
	if delegate == nil || delegate.Kind != yaml.MappingNode {
		return false
	}
	if v := mapValue(delegate, "chartRepository"); v != nil {
		v.Value = url
		return true
	}
	delegate.Content = append(delegate.Content,
		&yaml.Node{Kind: yaml.ScalarNode, Value: "chartRepository"}, &yaml.Node{Kind: yaml.ScalarNode, Value: url})
	return true
}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
