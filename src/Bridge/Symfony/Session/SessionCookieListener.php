<?php

declare(strict_types=1);

namespace Spindle\Bridge\Symfony\Session;

use Symfony\Component\HttpFoundation\Cookie;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\ResponseHeaderBag;
use Symfony\Component\HttpKernel\Event\RequestEvent;
use Symfony\Component\HttpKernel\Event\ResponseEvent;

/**
 * Puts the session cookie on the response of a request whose session Spindle's storage kept.
 *
 * It runs just after Symfony's session listener (which saves the session, sets Cache-Control to
 * private and, in recent versions, sets the cookie from the ini values), and sets the cookie as
 * PHP would have sent it for this request alone: a new or regenerated id gets the cookie with
 * framework.session's name, path, domain, HttpOnly and SameSite, Secure when cookie_secure is
 * true or is "auto" and the request came over HTTPS, and the lifetime regenerate() was given; a
 * session left empty clears the cookie the request sent. PHP's own cookie settings are
 * process-wide, so they cannot carry a per-request choice.
 */
final class SessionCookieListener
{
    /** Symfony's session listener runs at -1000 on kernel.response. */
    public const PRIORITY = -1001;
    public const REQUEST_PRIORITY = 256;

    public function __construct(private readonly SessionStorageFactory $factory)
    {
    }

    public function __invoke(ResponseEvent $event): void
    {
        if (!$event->isMainRequest()) {
            return;
        }
        $request = $event->getRequest();
        foreach ($this->factory->used() as $storage) {
            self::cookie($storage, $request, $event->getResponse()->headers);
        }
    }

    private static function cookie(SessionStorage $storage, Request $request, ResponseHeaderBag $headers): void
    {
        if ($storage->isStarted()) {
            $storage->save();
        }
        $options = $storage->options;
        if (!$options->useCookies) {
            return;
        }
        $name = $storage->getName();
        $id = $storage->getId();
        $sent = $request->cookies->get($name);
        $secure = $options->secureFor($request->isSecure());
        if ($storage->savedEmpty()) {
            if (\is_string($sent) && $sent !== '') {
                $headers->clearCookie($name, $options->cookiePath, $options->cookieDomain, $secure, $options->cookieHttpOnly, $options->cookieSameSite);
            } else {
                $headers->removeCookie($name, $options->cookiePath, $options->cookieDomain);
            }

            return;
        }
        if ($id === $sent) {
            $headers->removeCookie($name, $options->cookiePath, $options->cookieDomain);

            return;
        }
        $lifetime = $storage->cookieLifetime();
        $headers->setCookie(Cookie::create(
            $name,
            $id,
            $lifetime > 0 ? \time() + $lifetime : 0,
            $options->cookiePath,
            $options->cookieDomain,
            $secure,
            $options->cookieHttpOnly,
            false,
            $options->cookieSameSite,
        ));
    }

    /** Before Symfony's session listener (128) on kernel.request: the storages forget the last request. */
    public function onRequest(RequestEvent $event): void
    {
        if ($event->isMainRequest()) {
            $this->factory->reset();
        }
    }
}
