## the lab: real arm64 kernels under QEMU with several idle states
## (doc/lab.md); its scripts and tables, and its CI checks

dist_doc_DATA += doc/lab.md
EXTRA_DIST += lab/lab.sh lab/cross.sh lab/build-kernel.sh lab/kernel.config \
	lab/guest/init lab/guest/live-lab.sh lab/guest/workloads.sh \
	lab/tables/arm4.table \
	lab/tables/juno.table lab/tables/deep.table \
	lab/tables/x86-client.table lab/tables/x86-epyc.table \
	lab/tables/x86-deep.table
TESTS += tests/lab-fidelity.sh tests/lab-live.sh
EXTRA_DIST += tests/lab-fidelity.sh tests/lab-live.sh
