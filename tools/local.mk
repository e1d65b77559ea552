# capture: the op-log capture tool (Python, torch), its checkers, the
# committed op-log fixtures and the examples.  Nothing here is compiled.

EXTRA_DIST += \
	tools/README.md \
	tools/capture_oplog.py \
	tools/check_macs.py \
	tools/validate_oplog.py \
	tools/make_fixtures.sh \
	tools/check_fixtures.sh \
	docs/capture.md \
	examples/README.md \
	examples/custom_gelu.oplog.jsonl \
	examples/custom_gelu_model.py \
	examples/resnet50.oplog.jsonl.gz \
	tests/fixtures/models/mobilenet_v2.fwd_grad.oplog.jsonl.gz \
	tests/fixtures/models/mobilenet_v2.fwd_nograd_eval.oplog.jsonl.gz \
	tests/fixtures/models/mobilenet_v2.train.oplog.jsonl.gz \
	tests/fixtures/models/resnet18.train.oplog.jsonl.gz \
	tests/fixtures/models/resnet50.fwd_grad.oplog.jsonl.gz \
	tests/fixtures/models/resnet50.fwd_nograd_eval.oplog.jsonl.gz \
	tests/fixtures/models/resnet50.train.oplog.jsonl.gz \
	tests/fixtures/models/transformer_encoder.fwd_grad.oplog.jsonl.gz \
	tests/fixtures/models/transformer_encoder.fwd_nograd_eval.oplog.jsonl.gz \
	tests/fixtures/models/transformer_encoder.train.oplog.jsonl.gz \
	tests/fixtures/models/vit_b_16.fwd_grad.oplog.jsonl.gz \
	tests/fixtures/models/vit_b_16.fwd_nograd_eval.oplog.jsonl.gz \
	tests/fixtures/models/vit_b_16.train.oplog.jsonl.gz

# Fixtures are valid op log v1 and carry torchvision's published MACs
# (python3 standard library only; skips when python3 is absent).
TESTS += tools/check_fixtures.sh
EXTRA_DIST += tools/known_cost_share.py
