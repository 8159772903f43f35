"""Test hosts inside this machine: Linux network namespaces joined by veth pairs, each
with its own Docker engine (and an SSH server where the test reaches it over SSH), so a
multi-machine bench (SERVER_HOST, LOADGEN_HOSTS, TARGET_ADDRESS) runs for real on one
machine. Needs root. `testbed.Testbed` composes the parts and always tears them down.

One concern per module: plan (the address plan, pure), shell (commands with timeouts),
safety (the subnet and target checks), netns (the topology up and down), engines
(dockerd in a namespace), sshd (an SSH server in a namespace and the client side),
leftovers (what a run may leave behind, found and removed), testbed (the whole)."""
