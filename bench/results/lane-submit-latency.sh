#!/bin/bash
# per rate: the lane's own submit latency (metrics difference) next to the generator's end-to-end figures
for rate in 5000 1000 5000 10000; do
  curl -s http://127.0.0.1:18082/api/v1/admin/metrics | grep '^venue_http_submit_latency_us_bucket' > before.txt
  /work/main/tools/bin/venue loadgen --url http://127.0.0.1:18082 --operator-key data/keys/operator.key --rates $rate --duration 5 --accounts 300 2>&1 | grep -E "^[0-9,]+/s" > gen.txt
  curl -s http://127.0.0.1:18082/api/v1/admin/metrics | grep '^venue_http_submit_latency_us_bucket' > after.txt
  echo "rate $rate: $(cat gen.txt | sed 's/  */ /g')"
  paste before.txt after.txt | awk '{split($1,a,"\""); n=$4-$2; print "  le " a[2] " us: " n}' > diff.txt
  total=$(tail -1 diff.txt | awk '{print $NF}')
  awk -v t=$total '{printf "%s (%.2f%%)\n", $0, 100*$NF/t}' diff.txt
done
