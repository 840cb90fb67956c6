<?php

declare(strict_types=1);

namespace Spindle\Bridge\Pusher;

/** A presence channel member, as the app's /broadcasting/auth described it (channel_data). */
final class Member
{
    public function __construct(
        public readonly string|int $userId,
        public readonly mixed $userInfo,
    ) {
    }

    /** The member of a channel_data string, or null when it is no JSON object with a user_id. */
    public static function fromChannelData(string $channelData): ?self
    {
        try {
            $data = \json_decode($channelData, true, 64, \JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            return null;
        }
        if (!\is_array($data) || !isset($data['user_id']) || (!\is_string($data['user_id']) && !\is_int($data['user_id'])) || $data['user_id'] === '') {
            return null;
        }

        return new self($data['user_id'], $data['user_info'] ?? null);
    }
}
