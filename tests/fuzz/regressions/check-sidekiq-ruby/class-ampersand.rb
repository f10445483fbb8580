class& X
  include Sidekiq::Job
  sidekiq_options retry: 3
end
