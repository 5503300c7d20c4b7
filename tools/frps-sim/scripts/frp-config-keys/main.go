// Dumps the JSON key tree frp's strict decoder accepts, from the v1 config types' json tags
// (what ../../src/frp-config-keys.ts is generated from). In a scratch module per frp version:
//   go.mod: module frpkeys / require github.com/fatedier/frp vX / replace it => the module cache dir
//   copy frp's go.sum; add vp_0.70.go.txt as vp.go for frp >= 0.70 (visitor plugins), else
//   `func visitorPlugins() map[string]any { return map[string]any{} }`
//   GOPROXY=off GOFLAGS=-mod=mod go mod tidy && go run . > keys-X.json
//   node to-json.mjs 0.61.2=keys-0.61.2.json 0.70.1=keys-0.70.1.json > ../../src/frp-config-keys.json
package main

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"

	v1 "github.com/fatedier/frp/pkg/config/v1"
)

// Node: {"k": {name: Node|null}} for a struct, {"items": Node} for a slice of structs, null for a leaf/free map.
type Node map[string]any

var unmarshaler = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()

func schema(t reflect.Type) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshaler) || t.Implements(unmarshaler) {
		return nil // custom decoding (BandwidthQuantity; Typed* handled by caller)
	}
	switch t.Kind() {
	case reflect.Struct:
		keys := map[string]any{}
		fields(t, keys)
		return Node{"k": keys}
	case reflect.Slice, reflect.Array:
		if s := schema(t.Elem()); s != nil {
			return Node{"items": s}
		}
	}
	return nil
}

func fields(t reflect.Type, keys map[string]any) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name := strings.Split(tag, ",")[0]
		if name == "-" {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			fields(ft, keys)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		keys[name] = schema(f.Type)
	}
}

var proxyTypes = []string{"tcp", "udp", "tcpmux", "http", "https", "stcp", "xtcp", "sudp"}
var visitorTypes = []string{"stcp", "xtcp", "sudp"}
var pluginTypes = []string{"http2https", "http_proxy", "https2http", "https2https", "http2http", "socks5", "static_file", "unix_domain_socket", "tls2raw", "virtual_net"}

func main() {
	out := map[string]any{}
	out["server"] = schema(reflect.TypeOf(v1.ServerConfig{}))
	out["clientCommon"] = schema(reflect.TypeOf(v1.ClientCommonConfig{}))
	proxies := map[string]any{}
	for _, p := range proxyTypes {
		if c := v1.NewProxyConfigurerByType(v1.ProxyType(p)); c != nil {
			proxies[p] = schema(reflect.TypeOf(c))
		}
	}
	out["proxies"] = proxies
	visitors := map[string]any{}
	for _, p := range visitorTypes {
		if c := v1.NewVisitorConfigurerByType(v1.VisitorType(p)); c != nil {
			visitors[p] = schema(reflect.TypeOf(c))
		}
	}
	out["visitors"] = visitors
	plugins := map[string]any{}
	for _, p := range pluginTypes {
		var o v1.TypedClientPluginOptions
		if err := json.Unmarshal([]byte(`{"type":"`+p+`"}`), &o); err == nil && o.ClientPluginOptions != nil {
			plugins[p] = schema(reflect.TypeOf(o.ClientPluginOptions))
		}
	}
	out["plugins"] = plugins
	out["visitorPlugins"] = visitorPlugins()
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	_ = enc.Encode(out)
}
