#!/bin/bash
# compact ceiling with 1 and 2 verifier threads, alternating, a fresh appliance each
for threads in 1 2 1 2; do
  rm -rf /tmp/bench-vt && mkdir -p /tmp/bench-vt && cd /tmp/bench-vt
  printf "demo=true\nhttp.port=18083\nedge.ip.exempt=127.0.0.1\nmm.ip.actions=1000000\nverifier.threads=$threads\n" > venue.properties
  (nohup /work/main/scripts/run-appliance.sh --config venue.properties > appliance.log 2>&1 &)
  sleep 8
  echo "verifier.threads=$threads: $(/work/main/tools/bin/venue loadgen --url http://127.0.0.1:18083 --operator-key data/keys/operator.key --rates 10000 --duration 3 --accounts 100 --compact 100 --ceiling 16 --ceiling-actions 200000 2>&1 | grep -E '^ceiling' | sed 's/  */ /g')"
  pkill -f venue-appliance.jar; sleep 3
done
