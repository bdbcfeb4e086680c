"""contrib/kubernetes/ checked as a whole, beyond each manifest's schema: every file parses as
YAML; kustomization.yaml names files that exist, every manifest is named there (or, for an
optional one, in a comment), and its image is the StatefulSet's; the Services select the pods the
StatefulSet makes; every $(VAR) in the command line is defined before it in env; the ConfigMap
and Secret it reads are the ones the folder makes or its README tells the operator to make.
Prints, for the shell around it, the probes' and the server's command lines (one JSON array a line).

usage: kubernetes-manifests.py FOLDER OUT
"""
import json
import os
import re
import sys

import yaml  # from the throwaway venv (kubernetes-validate depends on PyYAML)

folder, out = sys.argv[1], sys.argv[2]
problems = []


def check(condition, problem):
    if not condition:
        problems.append(problem)


def load(name):
    with open(os.path.join(folder, name), encoding="utf-8") as handle:
        return [doc for doc in yaml.safe_load_all(handle) if doc is not None]


files = sorted(f for f in os.listdir(folder) if f.endswith((".yaml", ".yml")))
documents = {name: load(name) for name in files}
for name, docs in documents.items():
    for doc in docs:
        check(isinstance(doc, dict) and "apiVersion" in doc and "kind" in doc, f"{name}: a document without apiVersion and kind")

kustomization = documents.pop("kustomization.yaml")[0]
with open(os.path.join(folder, "kustomization.yaml"), encoding="utf-8") as handle:
    commented = set(re.findall(r"^\s*#\s*-\s*(\S+\.ya?ml)\s*$", handle.read(), re.MULTILINE))
resources = kustomization.get("resources", [])
for name in resources:
    check(name in documents, f"kustomization.yaml names {name}, which is not in the folder")
for name in documents:
    check(name in resources or name in commented, f"{name} is neither a resource of kustomization.yaml nor named there as optional")

by_kind = {}
for name, docs in documents.items():
    for doc in docs:
        by_kind.setdefault(doc["kind"], []).append(doc)

statefulsets = by_kind.get("StatefulSet", [])
check(len(statefulsets) == 1, "not exactly one StatefulSet")
nodes = statefulsets[0]
spec = nodes["spec"]
pod = spec["template"]["spec"]
labels = spec["template"]["metadata"]["labels"]
check(spec["selector"]["matchLabels"].items() <= labels.items(), "the StatefulSet's selector does not match its pods' labels")
container = pod["containers"][0]
images = [image["name"] for image in kustomization.get("images", [])]
check(container["image"] in images, f"kustomization.yaml's images do not rename the StatefulSet's image {container['image']}")
check(pod["securityContext"].get("runAsNonRoot") is True, "the pods may run as root")
check(container["securityContext"].get("readOnlyRootFilesystem") is True, "the root file system is writable")
for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
    check(probe in container, f"no {probe}")
mounts = {mount["name"] for mount in container["volumeMounts"]}
claims = {claim["metadata"]["name"] for claim in spec.get("volumeClaimTemplates", [])}
check(claims and claims <= mounts, "no volume claim per node mounted in the container")

services = {service["metadata"]["name"]: service for service in by_kind.get("Service", [])}
headless = services.get(spec["serviceName"])
check(headless is not None and headless["spec"].get("clusterIP") == "None", f"serviceName {spec['serviceName']} is not a headless Service here")
for name, service in services.items():
    selector = service["spec"]["selector"]
    pod_name = selector.get("statefulset.kubernetes.io/pod-name")
    if pod_name is not None:
        index = pod_name.rsplit("-", 1)[-1]
        check(pod_name.startswith(nodes["metadata"]["name"] + "-") and index.isdigit() and int(index) < spec["replicas"],
              f"Service {name} selects {pod_name}, which the StatefulSet does not make")
    else:
        check(selector.items() <= labels.items(), f"Service {name} selects no pod of the StatefulSet")
    for port in service["spec"]["ports"]:
        check(port["targetPort"] in [p["name"] for p in container["ports"]], f"Service {name} targets a port the pods do not name")

# $(VAR) is expanded only from variables defined before it in env.
defined = []
for variable in container.get("env", []):
    for used in re.findall(r"\$\((\w+)\)", json.dumps(variable)):
        check(used in defined, f"env {variable['name']} uses $({used}) before it is defined")
    defined.append(variable["name"])
    source = variable.get("valueFrom", {})
    if "configMapKeyRef" in source:
        ref = source["configMapKeyRef"]
        maps = {m["metadata"]["name"]: m for m in by_kind.get("ConfigMap", [])}
        check(ref["key"] in maps.get(ref["name"], {}).get("data", {}), f"env {variable['name']} reads a ConfigMap key the folder does not make")
    if "secretKeyRef" in source:
        with open(os.path.join(folder, "README.md"), encoding="utf-8") as handle:
            readme = handle.read()
        ref = source["secretKeyRef"]
        check(ref["name"] in readme and f"--from-literal={ref['key']}=" in readme,
              f"the README does not tell how to make Secret {ref['name']} with key {ref['key']}")
command = container["command"] + container.get("args", [])
for used in re.findall(r"\$\((\w+)\)", " ".join(command)):
    check(used in defined, f"the command line uses $({used}), which env does not define")

if problems:
    for problem in problems:
        print("FAIL:", problem, file=sys.stderr)
    sys.exit(1)
with open(out, "w", encoding="utf-8") as handle:
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        handle.write(json.dumps({"what": probe, "argv": container[probe]["exec"]["command"]}) + "\n")
    handle.write(json.dumps({"what": "command", "argv": command}) + "\n")
print(f"manifests: {len(files)} files, {sum(len(d) for d in documents.values())} resources, consistent")
