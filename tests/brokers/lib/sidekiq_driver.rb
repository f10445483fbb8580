# Plays one corpus scenario (JSON on stdin) against Sidekiq 6.4.1 on the Redis at
# REDIS_URL, and prints the observed trace as JSON. Each delivery is Sidekiq's own
# Processor#process_one (BasicFetch, server middleware, JobRetry) in a forked child, so a
# 'crash' is a real SIGKILL of the process running the job. Time is virtual: instead of
# waiting for the poller, the earliest retry is moved to its queue by the poller's own
# zpopbyscore script, and its delay is read from the retry set's score.
require "json"
require "sidekiq"
require "sidekiq/api"
require "sidekiq/fetch"
require "sidekiq/processor"
require "sidekiq/scheduled"

scenario = JSON.parse($stdin.read)
config = scenario.fetch("config")
url = ENV.fetch("REDIS_URL")
Sidekiq.logger.level = Logger::FATAL
Sidekiq.redis = {url: url}
Sidekiq.redis(&:flushdb)
(config["options"] || {}).each { |k, v| Sidekiq.options[k.to_sym] = v }  # 6.x configuration (config[...] is 7)
Sidekiq.options[:queues] = config["queues"] || ["default"]
Sidekiq.options[:strict] = config.fetch("strict", true)

class TransientError < StandardError; end
class PermanentError < StandardError; end

# Records each delivery with the retry_count the job carries on it (nil on a first run).
class Recorder
  def call(_worker, msg, queue)
    id = msg["args"][0]
    Sidekiq.redis { |c| c.rpush("dlqlab:deliveries", JSON.dump({job: id, count: msg["retry_count"], queue: queue})) }
    yield
  end
end
Sidekiq.server_middleware { |chain| chain.add Recorder }

OUTCOMES = scenario["outcomes"] || {}
class DlqJob
  include Sidekiq::Worker
  def perform(id, *_payload)
    n = Sidekiq.redis { |c| c.incr("dlqlab:n:#{id}") } - 1
    list = OUTCOMES[id] || ["ok"]
    case list[[n, list.length - 1].min]
    when "ok" then Sidekiq.redis { |c| c.sadd("dlqlab:completed", id) }
    when "transient" then raise TransientError, "transient failure of #{id}"
    when "permanent" then raise PermanentError, "permanent failure of #{id}"
    when "crash" then Process.kill("KILL", Process.pid)
    end
  end
end
DlqJob.sidekiq_options(config["sidekiq_options"]) if config["sidekiq_options"]
if (r = config["retry_in"])  # sidekiq_retry_in { |count| … } in seconds
  DlqJob.sidekiq_retry_in { |count| r["base"].to_i + r.fetch("per_count", 0).to_i * count }
end

# A generated snippet (config.snippet: its file; config.jobClass: its job class) is loaded as the
# `sidekiq` command would load it with -r: as a server (Sidekiq::CLI defined), so its
# configure_server block runs. Its work, OrderHandler.call (order_handler.rb beside it), plays
# the scenario's outcomes through DlqJob#perform; the snippet's own job class is what is pushed.
JOB_CLASS = if config["snippet"]
  require "sidekiq/cli"
  load config["snippet"]
  Object.const_get(config.fetch("jobClass"))
else
  DlqJob
end

def push(job)
  item = {"class" => JOB_CLASS, "args" => [job["id"]] + (JOB_CLASS == DlqJob ? [job["payload"] || {}] : []), "jid" => job["id"]}
  item["queue"] = job["queue"] if job["queue"]
  Sidekiq::Client.push(item)
end

def queued?(queues)
  Sidekiq.redis { |c| queues.sum { |q| c.llen("queue:#{q}") } } > 0
end

def deliver_one
  pid = fork do
    Sidekiq.redis = {url: ENV.fetch("REDIS_URL")}  # no connection shared with the parent
    fetch = Sidekiq::BasicFetch.new(Sidekiq.options)
    begin
      Sidekiq::Processor.new(nil, Sidekiq.options.merge(fetch: fetch)).send(:process_one)
    rescue TransientError, PermanentError
      # the job's own error, re-raised by Processor#process once JobRetry has handled it
    end
    exit!(0)
  end
  Process.wait(pid)
  raise "delivery process failed: #{$?.inspect}" unless $?.success? || $?.termsig == 9
end

delays = Hash.new { |h, k| h[k] = [] }
enq = Sidekiq::Scheduled::Enq.new
max = config.fetch("maxDeliveries", 60)
deliveries = -> { Sidekiq.redis { |c| c.llen("dlqlab:deliveries") } }

run = lambda do
  loop do
    deliver_one while queued?(Sidekiq.options[:queues]) && deliveries.call < max
    break if deliveries.call >= max
    top = Sidekiq.redis { |c| c.zrange("retry", 0, 0, with_scores: true) }.first
    break unless top
    msg, score = JSON.parse(top[0]), top[1]
    delays[msg["args"][0]] << ((score - (msg["retried_at"] || msg["failed_at"])) * 1000).round
    Sidekiq.redis do |c|
      while (job = enq.send(:zpopbyscore, c, keys: ["retry"], argv: [score.to_s]))
        Sidekiq::Client.push(Sidekiq.load_json(job))
      end
    end
  end
end

(scenario["jobs"] || []).each { |j| push(j) }
run.call
(scenario["steps"] || []).each do |step|
  sleep(step["wait"]) if step["wait"]
  push(step["push"]) if step["push"]
  Sidekiq::DeadSet.new.find_job(step["retryDead"]).retry if step["retryDead"]
  Sidekiq::RetrySet.new.find_job(step["retryNow"]).retry if step["retryNow"]
  run.call
end

ids = (scenario["jobs"] || []).map { |j| j["id"] } + (scenario["steps"] || []).filter_map { |s| s["push"]&.fetch("id") }
final = {}
dlq = {}
completed = Sidekiq.redis { |c| c.smembers("dlqlab:completed") }
dead = Sidekiq::DeadSet.new.to_a.map(&:item).to_h { |i| [i["args"][0], i] }
retrying = Sidekiq::RetrySet.new.to_a.map { |e| e.item["args"][0] }
queued = Sidekiq::Queue.all.flat_map { |q| q.to_a.map { |e| e.item["args"][0] } }
ids.each do |id|
  final[id] = if dead[id] then "dlq"
  elsif completed.include?(id) then "completed"
  elsif retrying.include?(id) || queued.include?(id) then "waiting"
  else "dropped"
  end
  next unless dead[id]
  d = dead[id]
  dlq[id] = {"error_class" => d["error_class"], "error_message" => d["error_message"], "retry_count" => d["retry_count"],
             "queue" => d["queue"], "retry" => d["retry"], "failed_at" => d["failed_at"], "retried_at" => d["retried_at"]}.compact
end
recorded = Sidekiq.redis { |c| c.lrange("dlqlab:deliveries", 0, -1) }.map { |s| JSON.parse(s) }
puts JSON.dump({deliveries: recorded.map { |d| {job: d["job"], count: d["count"]} }, delays: delays, final: final, dlq: dlq,
                sidekiq: Sidekiq::VERSION, options: {dead_timeout_in_seconds: Sidekiq.options[:dead_timeout_in_seconds]}})
