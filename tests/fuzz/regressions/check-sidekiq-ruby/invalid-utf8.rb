class X
  include Sidekiq::Job
  sidekiq_options queue: "qÿ"
end
